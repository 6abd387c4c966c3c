#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// A byte buffer each thread keeps for assembling short-lived output, such as a WebSocket
/// frame's JSON text before it is copied into the frame: once the thread's buffer has grown,
/// assembling allocates nothing (the 1:1 hot path assembles an answer and an event a message
/// on its event loop, and used to allocate an array for each).
///
/// Thread-local, so no lock and no sharing: the buffer lives in a pthread key's slot and is
/// freed when its thread ends. A use nested inside another on the same thread gets a fresh
/// buffer of its own (correct, and allocating), never the one in use.
public enum ScratchBytes {
    /// The most capacity a thread keeps between uses; a buffer that grew past it (a large
    /// answer) is freed after its use rather than held for the thread's lifetime.
    public static let retainedCapacity = 64 * 1024

    /// Calls `body` with the thread's buffer, emptied; what `body` leaves in it is gone after
    /// the call, so copy out what must outlive it.
    public static func with<R>(_ body: (inout [UInt8]) throws -> R) rethrows -> R {
        let holder = Holder.current
        var buffer: [UInt8] = []
        swap(&buffer, &holder.bytes)
        buffer.removeAll(keepingCapacity: true)
        defer {
            if buffer.capacity <= retainedCapacity { swap(&buffer, &holder.bytes) }
        }
        return try body(&buffer)
    }

    /// The buffer of one thread, owned by its pthread key slot.
    private final class Holder {
        var bytes: [UInt8] = []

        /// The slot's key; its destructor releases a thread's holder when the thread ends.
        static let key: pthread_key_t = {
            var key = pthread_key_t()
            let status = pthread_key_create(&key) { raw in
                // Optional on Linux, not on Darwin.
                let pointer: UnsafeMutableRawPointer? = raw
                guard let pointer else { return }
                Unmanaged<Holder>.fromOpaque(pointer).release()
            }
            precondition(status == 0, "pthread_key_create failed: \(status)")
            return key
        }()

        /// The calling thread's holder, made on its first use.
        static var current: Holder {
            if let raw = pthread_getspecific(key) {
                return Unmanaged<Holder>.fromOpaque(raw).takeUnretainedValue()
            }
            let holder = Holder()
            // The slot holds the reference until the thread ends (the key's destructor).
            pthread_setspecific(key, Unmanaged.passRetained(holder).toOpaque())
            return holder
        }
    }
}
