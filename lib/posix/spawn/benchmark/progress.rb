require 'io/console'

module POSIX
  module Spawn
    module Benchmark
      # Progress on stderr while a run lasts: on a terminal one line, rewritten as each case runs, saying how
      # long is left; nothing elsewhere, so that a log keeps only the report.
      class Progress
        def initialize(io)
          @io = io
          @terminal = io.tty?
        end

        # TEXT, after the time left when SECONDS_LEFT is given, cut to the terminal's width (a line that
        # wrapped could not be rewritten).
        def status(text, seconds_left = nil)
          return unless @terminal

          line = seconds_left ? "[about #{Progress.duration(seconds_left)} left] #{text}" : text
          @io.print "\r\e[K#{line[0, width - 1]}"
        end

        def done
          @io.print "\r\e[K" if @terminal
        end

        def self.duration(seconds)
          return format('%.1f s', seconds) if seconds < 10

          seconds = seconds.round
          seconds < 60 ? "#{seconds} s" : format('%d min %02d s', seconds / 60, seconds % 60)
        end

        private

        def width
          @io.winsize[1].then { |columns| columns.positive? ? columns : 80 }
        rescue StandardError
          80
        end
      end
    end
  end
end
