import Foundation
import PackagePlugin

/// Names the source revision a build is made from: before every build of the target that uses
/// it, writes `SourceRevision.swift` with `git describe` of the package's checkout (nil outside
/// one, as in a source tarball). The file is rewritten only when the revision changes, so a build
/// on the same commit compiles nothing again.
@main
struct SourceRevision: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let output = context.pluginWorkDirectoryURL.appending(path: "Generated")
        let file = output.appending(path: "SourceRevision.swift").path
        // `sh -c SCRIPT NAME ARGS…`: the paths reach the script as $1 and $2, never inside its
        // text, so no quoting of them is needed.
        let script = """
            mkdir -p "$(dirname "$2")"
            revision=$(git -C "$1" describe --always --dirty --abbrev=12 2>/dev/null) || revision=
            if [ -n "$revision" ]; then value="\\"$revision\\""; else value=nil; fi
            text="/// The source revision this binary was built from; written by the SourceRevision plugin.
            let sourceRevision: String? = $value"
            [ "$(cat "$2" 2>/dev/null)" = "$text" ] || printf '%s\\n' "$text" > "$2"
            """
        return [
            .prebuildCommand(
                displayName: "Naming the source revision",
                executable: URL(fileURLWithPath: "/bin/sh"),
                arguments: ["-c", script, "source-revision", context.package.directoryURL.path, file],
                outputFilesDirectory: output)
        ]
    }
}
