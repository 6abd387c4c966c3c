/// The glibc malloc chunk an instance of `type` takes: its instance size as the Swift runtime
/// records it, plus malloc's 8-byte header, rounded up to 16 (32 at least). Read from the
/// class's metadata rather than with `malloc_usable_size` on a live object: glibc hands out a
/// larger free chunk whole when what would be left of it is too small to split, so a live
/// object's usable size depends on the heap's history, not only on the object.
///
/// Class metadata without Objective-C interop (Linux): the kind and superclass pointers, the
/// flags and instance address point (4 bytes each), then the instance size (4 bytes).
public func mallocChunk(of type: AnyClass) -> Int {
    let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
    let instanceSize = Int(metadata.load(fromByteOffset: 24, as: UInt32.self))
    return max(32, (instanceSize + 8 + 15) & ~15)
}
