package org.posixspawn.jruby.plan;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.jruby.exceptions.RaiseException;

/**
 * An error of the arguments that MRI raises only in rb_execarg_parent_start, after opening the redirect
 * files before it (a descriptor table that does not hold, an open's flags out of range): those files are
 * to be opened (created, truncated) first, and an error opening one of them raised instead.
 */
public final class AfterOpening extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** The files MRI opens before it meets the error, in order. */
    public final transient List<FileToOpen> openFirst;
    /** What is raised once they are open. */
    public final transient RaiseException error;

    AfterOpening(List<FileToOpen> openFirst, RaiseException error) {
        super(null, null, false, false); // no stack trace: it is carried to the bridge, never shown
        this.openFirst = Collections.unmodifiableList(new ArrayList<>(openFirst));
        this.error = error;
    }
}
