require 'ffi'

# The C heap's allocated total from glibc's mallinfo2(3): the bytes in use in every arena (uordblks) plus
# those in chunks malloc gave its own mmap (hblkhd). The soak's one reading of native memory, in this one
# file so that the project's own reader (issue #28) can take its place.
module NativeHeap
  extend FFI::Library
  ffi_lib FFI::Library::LIBC

  # struct mallinfo2 (glibc 2.33+, malloc.h): ten size_t fields.
  class Info < FFI::Struct
    layout(*%i[arena ordblks smblks hblks hblkhd usmblks fsmblks uordblks fordblks keepcost].flat_map { |f| [f, :size_t] })
  end

  attach_function :mallinfo2, [], Info.by_value

  module_function

  def allocated
    info = mallinfo2
    info[:uordblks] + info[:hblkhd]
  end
end
