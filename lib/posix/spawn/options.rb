module POSIX
  module Spawn
    # The checks of this gem's own options that Child, Handle and spawn share.
    module Options
      module_function

      # Process.spawn's rule for its own boolean options (:close_others, :unsetenv_others), and its words:
      # nil is false; anything but true, false and nil is an ArgumentError naming the option.
      def boolean(name, value)
        return false if value.nil?
        raise ArgumentError, "expected true or false as #{name}: #{value}" unless value == true || value == false

        value
      end

      # A real number (Integer, Float, Rational) of `unit` ('seconds', 'bytes'), nil for none; anything
      # else is a TypeError, NaN an ArgumentError, each naming the option.
      def number(name, value, unit)
        return if value.nil?
        raise TypeError, "#{name} option must be a number of #{unit}, not #{value.class}" unless value.is_a?(Numeric) && value.real?
        raise ArgumentError, "#{name} option must be a number of #{unit}, not NaN" if value.to_f.nan?

        value
      end
    end
  end
end
