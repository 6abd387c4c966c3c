#if FUZZING
import Glibc

// Built with `-sanitize=fuzzer` (see `make fuzz`), this executable is libFuzzer's driver.
// SwiftPM links an executable's entry point as `<module>_main`, so that is the symbol
// defined here; it hands control to libFuzzer, which calls `LLVMFuzzerTestOneInput` with
// each input. The target comes from `PARLEY_FUZZ_TARGET` because libFuzzer owns argv.

/// The target, chosen once: libFuzzer calls the callback millions of times.
private let selectedTarget: FuzzTarget = {
    guard let name = getenv("PARLEY_FUZZ_TARGET").map({ String(cString: $0) }), let target = FuzzTarget(rawValue: name) else {
        writeToStandardError("set PARLEY_FUZZ_TARGET to one of:\n\(FuzzTarget.list)\n")
        exit(2)
    }
    return target
}()

/// Straight to fd 2: unbuffered, so it is out before an abort.
private func writeToStandardError(_ text: String) {
    var text = text
    text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}

@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// libFuzzer's per-input callback. A broken invariant aborts, which libFuzzer reports as
/// a crash and saves the input for.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    do {
        try selectedTarget.run(bytes)
    } catch {
        writeToStandardError("parley-fuzz \(selectedTarget.rawValue): invariant broken: \(error)\n")
        abort()
    }
    return 0
}

@_cdecl("parley_fuzz_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    _ = selectedTarget
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv, fuzzTestOneInput)
}
#endif
