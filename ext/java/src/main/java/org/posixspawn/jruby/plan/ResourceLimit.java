package org.posixspawn.jruby.plan;

/** One :rlimit_* option: the resource's platform number and its soft and hard limits (rlim_t bits). */
public final class ResourceLimit {
    public final String name;
    public final int resource;
    public final long soft;
    public final long hard;

    public ResourceLimit(String name, int resource, long soft, long hard) {
        this.name = name;
        this.resource = resource;
        this.soft = soft;
        this.hard = hard;
    }

    @Override
    public String toString() {
        return name + "=" + Long.toUnsignedString(soft) + ":" + Long.toUnsignedString(hard);
    }
}
