import Mustache
import RolodeckTheme
import RolodeckCore

/// The templates and static files a site is rendered with: the built-in theme, with the site's
/// own `Templates/` and `Public/` files replacing built-in files of the same name.
public struct Theme: Sendable {
    /// Every template, compiled once; partials and parents resolved.
    public let templates: TemplateLibrary
    /// Static files by path relative to the output root (`style.css`).
    let assets: [String: [UInt8]]
    /// Problems that did not stop the build (files in Templates/ that are not templates).
    let warnings: [Diagnostic]
    /// Each template's file as messages name it, by template name.
    let paths: [String: String]

    /// The template extension; a template's name is its file name without it.
    static let templateExtension = ".mustache"

    /// Compiles the theme, reporting every template mistake with its file, line and column.
    /// `builtInPrefix` is how messages name the built-in templates' folder.
    static func load(
        siteTemplates: [String: SourceText], siteAssets: [String: [UInt8]],
        builtIn: [String: [UInt8]] = ThemeFiles.all, builtInPrefix: String = "(built-in) Templates/"
    ) throws(DiagnosticError) -> Theme {
        var sources: [String: String] = [:]
        var paths: [String: String] = [:]
        var assets: [String: [UInt8]] = [:]
        var diagnostics: [Diagnostic] = []
        for (path, bytes) in builtIn {
            if path.hasPrefix("Templates/"), path.hasSuffix(templateExtension) {
                let file = String(path.dropFirst("Templates/".count))
                let name = String(file.dropLast(templateExtension.count))
                sources[name] = String(decoding: bytes, as: UTF8.self)
                paths[name] = builtInPrefix + file
            } else if path.hasPrefix("Public/") {
                assets[String(path.dropFirst("Public/".count))] = bytes
            }
        }
        for (file, source) in siteTemplates {
            guard file.hasSuffix(templateExtension), !file.contains("/") else {
                diagnostics.append(Diagnostic(.warning, at: source.start,
                    "ignored: templates are .mustache files directly in Templates/"))
                continue
            }
            let name = String(file.dropLast(templateExtension.count))
            if let offset = UTF8Validator.invalidOffsets(in: source.bytes, limit: 1).first {
                diagnostics.append(Diagnostic(.error, at: source.location(at: offset),
                    "invalid UTF-8; templates must be saved as UTF-8"))
            }
            sources[name] = String(decoding: source.bytes, as: UTF8.self)
            paths[name] = source.path
        }
        for (path, bytes) in siteAssets {
            assets[path] = bytes
        }
        let library: TemplateLibrary
        do {
            library = try TemplateLibrary(templates: sources, options: .strict)
        } catch {
            diagnostics += error.errors.map { diagnostic(for: $0, paths: paths) }
            throw DiagnosticError(diagnostics)
        }
        if diagnostics.containsErrors { throw DiagnosticError(diagnostics) }
        return Theme(templates: library, assets: assets, warnings: diagnostics, paths: paths)
    }

    /// A mistake found while rendering (a dynamic partial that names no template), pointing
    /// into the template's file.
    func diagnostic(for error: MustacheError) -> Diagnostic {
        Theme.diagnostic(for: error, paths: paths)
    }

    /// A template mistake as a diagnostic pointing into the template's file.
    static func diagnostic(for error: MustacheError, paths: [String: String]) -> Diagnostic {
        let path = paths[error.templateName] ?? error.templateName + templateExtension
        let location = error.line > 0 ? SourceLocation(path: path, line: error.line, column: error.column) : nil
        return Diagnostic(.error, at: location, error.message)
    }
}
