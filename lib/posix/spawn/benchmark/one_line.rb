# Required first by --cold's fresh JVMs of JRuby's own ways (cold_child.rb): what a script's first require costs whatever it loads.
