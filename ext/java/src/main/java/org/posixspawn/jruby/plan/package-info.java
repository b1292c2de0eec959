/**
 * MRI's argument rules for Process.spawn (process.c, one class per seam), turning Ruby arguments into an
 * immutable {@link org.posixspawn.jruby.plan.SpawnPlan} of bytes. Imports org.jruby, never os
 * (ImportRulesTest); os takes only its values, the classes that import nothing of JRuby.
 */
package org.posixspawn.jruby.plan;
