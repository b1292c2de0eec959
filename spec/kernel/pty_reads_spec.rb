require 'spec_helper'
require_relative 'drop_in_context'
require 'pty'
require 'timeout'

# A PTY master's chunk reads (readpartial, read_nonblock, sysread, read with a length) under the drop-in,
# each scenario run here and in MRI 3.1 (/usr/bin/ruby, the oracle): both must report the same, a value's
# inspect or the error's class and message. The master is PTY.open's; the slave writes what it reads.
RSpec.describe 'PTY master reads under the drop-in, against MRI' do
  include_context 'drop-in installed'

  PTY_READS_MRI = '/usr/bin/ruby'.freeze

  # Shared by both runs. pty: [master, slave] with `written` already waiting on the master. report: the
  # block's value, or its error, as a line.
  PTY_READS_HELPERS = <<~'RUBY'.freeze
    def pty(written)
      master, slave = PTY.open
      (@opened ||= []).push(master, slave)
      slave.syswrite(written)
      IO.select([master], nil, nil, 5)
      [master, slave]
    end

    def report
      yield.inspect
    rescue StandardError => e
      "#{e.class}: #{e.message}"
    ensure
      (@opened || []).each { |io| io.close unless io.closed? }
    end
  RUBY

  module_eval(PTY_READS_HELPERS)

  def self.scenario(title, code)
    it title, skip: (File.executable?(PTY_READS_MRI) ? false : 'no MRI at /usr/bin/ruby') do
      mri = IO.popen([PTY_READS_MRI, '-e', "require 'pty'\n#{PTY_READS_HELPERS}\nputs(report {\n#{code}})"], err: %i[child out], &:read)
      expect($?).to be_success, mri
      expect(report { Timeout.timeout(10) { instance_eval(code) } }).to eq(mri.chomp)
    end
  end

  scenario 'a frozen outbuf raises before anything is read: the bytes stay for the next read', <<~'RUBY'
    %i[readpartial read_nonblock sysread].map do |name|
      m, = pty('abc')
      [(m.public_send(name, 10, 'x'.freeze) rescue $!.class), m.read_nonblock(10, exception: false)]
    end
  RUBY
  scenario 'outbuf keeps its encoding (readpartial, read_nonblock, read with a length)', <<~'RUBY'
    m, = pty('abcdef')
    bufs = Array.new(3) { 'zz'.encode('UTF-16LE') }
    [m.readpartial(2, bufs[0]), m.read_nonblock(2, bufs[1]), m.read(2, bufs[2])].map { |b| [b, b.encoding] }
  RUBY
  scenario 'the length is an Integer (to_int): a String or nil is a TypeError, a Float is cut', <<~'RUBY'
    m, = pty('abc')
    [(m.readpartial('2') rescue [$!.class, $!.message]), (m.read_nonblock(nil) rescue [$!.class, $!.message]),
     m.readpartial(2.7), (m.readpartial(-1) rescue [$!.class, $!.message])]
  RUBY
  scenario 'a closed master raises IOError, a zero length too; a negative length is told first', <<~'RUBY'
    m, = pty('abc')
    m.close
    [0, 5].flat_map { |n| [(m.readpartial(n) rescue $!.message), (m.read_nonblock(n) rescue $!.message)] } +
      [(m.readpartial(-1) rescue [$!.class, $!.message])]
  RUBY
  scenario "the rest of a gets' line goes first, to readpartial, read_nonblock and into an outbuf", <<~'RUBY'
    m, = pty("a\nbcd")
    [m.gets, m.readpartial(1, 'q'.encode('UTF-16LE')).encoding, m.read_nonblock(1), m.readpartial(0), m.readpartial(10)]
  RUBY
  scenario 'with an internal encoding, gets and getc transcode to it; a chomp takes the separator alone', <<~'RUBY'
    m, s = pty("h\u00e9\nxy\n\u00e9z!")
    m.set_encoding('UTF-8:UTF-16LE')
    got = [m.gets, m.getc, m.gets(chomp: true), m.getc]
    s.syswrite("ab\xffcd\n")
    IO.select([m], nil, nil, 5)
    got + [(m.gets rescue [$!.class, $!.message])] + got.map(&:encoding).uniq
  RUBY
end
