#if !FUZZING
import Foundation

/// `parley-fuzz <target> <file-or-directory>...`: runs every input through the target's
/// harness without libFuzzer, so a normal build can replay the committed corpus (and every
/// crash once fixed) as a regression test. Exits 1 if any input breaks an invariant.
///
/// `parley-fuzz --list` prints the target names.
@main
struct ReplayCommand {
    static func main() {
        let arguments = CommandLine.arguments.dropFirst()
        if arguments.first == "--list" {
            print(FuzzTarget.list)
            return
        }
        guard let name = arguments.first, let target = FuzzTarget(rawValue: name), arguments.count > 1 else {
            FileHandle.standardError.write(Data("usage: parley-fuzz <target> <file-or-directory>...\ntargets:\n\(FuzzTarget.list)\n".utf8))
            exit(2)
        }
        var inputs: [String] = []
        for path in arguments.dropFirst() {
            guard let found = files(at: path) else {
                FileHandle.standardError.write(Data("parley-fuzz: cannot read \(path)\n".utf8))
                exit(2)
            }
            inputs += found
        }
        var failures = 0
        for path in inputs {
            guard let data = FileManager.default.contents(atPath: path) else {
                FileHandle.standardError.write(Data("parley-fuzz: cannot read \(path)\n".utf8))
                exit(2)
            }
            // Should the harness trap, the crash report then names the input.
            CrashReporter.current(path)
            do {
                try target.run(Array(data))
            } catch {
                failures += 1
                print("FAIL \(path): \(error)")
            }
        }
        CrashReporter.current(nil)
        print("\(target.rawValue): \(inputs.count - failures) of \(inputs.count) inputs passed")
        exit(failures == 0 ? 0 : 1)
    }

    /// The regular files at `path`, sorted: the file itself, or every file in the
    /// directory (not recursively, as libFuzzer reads corpora).
    static func files(at path: String) -> [String]? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return nil }
        guard isDirectory.boolValue else { return [path] }
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return nil }
        return names.sorted().filter { !$0.hasPrefix(".") }.map { (path as NSString).appendingPathComponent($0) }
    }
}
#endif
