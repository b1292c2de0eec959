require_relative 'process_resources'

# `expect { ... }.not_to leak`: the block leaves this process with no descriptor (fd and target), child or
# thread it did not have before, compared as sets and settled for a second (what the JVM opens for a
# moment is gone by then); the failure names each one. What closed meanwhile is no leak (an earlier
# example's IO may be collected as garbage meanwhile); to check that too, compare
# ProcessResources.settled_changes with {} (spec/hardening/faults_spec.rb does). Run the block once before, so
# that what lives on by design after a first use (the FS thread, Timeout's thread) is there on both sides.
#
#   expect { POSIX::Spawn::Child.new('true') }.not_to leak
#   expect { ... }.not_to leak(:descriptors, :children)   # only those kinds
RSpec::Matchers.define :leak do |*kinds|
  supports_block_expectations

  match do |block|
    before = ProcessResources.snapshot(*kinds)
    block.call
    @changes = ProcessResources.settled_changes(before, new_only: true)
    !@changes.empty?
  end

  failure_message { 'expected the block to leave something behind, but it left nothing' }
  failure_message_when_negated do
    "expected the block to leave nothing behind, but: #{ProcessResources.describe_changes(@changes)}"
  end
end
