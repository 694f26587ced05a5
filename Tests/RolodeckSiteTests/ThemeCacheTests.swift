import RolodeckCore
import Testing
@testable import RolodeckSite

@Suite struct ThemeCacheTests {
    /// A site's template (a file of `Templates/`), read anew: a text of its own each time.
    private func template(_ text: String, name: String = "extra.mustache") -> [String: SourceText] {
        [name: SourceText(path: "site/Templates/" + name, bytes: Array(text.utf8))]
    }

    @Test func theSameFilesTakeTheKeptTheme() throws {
        let cache = ThemeCache()
        let first = try cache.theme(siteTemplates: template("Hi {{name}}"), siteAssets: ["a.css": [1, 2]])
        let again = try cache.theme(siteTemplates: template("Hi {{name}}"), siteAssets: ["a.css": [1, 2]])
        #expect(again.templates === first.templates)
    }

    @Test func aChangedTemplateIsCompiledAnew() throws {
        let cache = ThemeCache()
        let first = try cache.theme(siteTemplates: template("Hi {{name}}"), siteAssets: [:])
        let changed = try cache.theme(siteTemplates: template("Bye {{name}}"), siteAssets: [:])
        #expect(changed.templates !== first.templates)
        #expect(try changed.templates.render("extra", ["name": "Ann"]) == "Bye Ann")
        // Another file with the same bytes, and one more file, are changes too.
        let moved = try cache.theme(
            siteTemplates: template("Bye {{name}}", name: "other.mustache"), siteAssets: [:])
        #expect(moved.templates.contains("other") && !moved.templates.contains("extra"))
        let added = try cache.theme(
            siteTemplates: template("Bye {{name}}").merging(template("x", name: "other.mustache")) { $1 },
            siteAssets: [:])
        #expect(added.templates.contains("other") && added.templates.contains("extra"))
    }

    @Test func aChangedStaticFileMakesANewTheme() throws {
        let cache = ThemeCache()
        _ = try cache.theme(siteTemplates: [:], siteAssets: ["a.css": [1, 2]])
        let changed = try cache.theme(siteTemplates: [:], siteAssets: ["a.css": [1, 3]])
        #expect(changed.assets["a.css"] == [1, 3])
        let removed = try cache.theme(siteTemplates: [:], siteAssets: [:])
        #expect(removed.assets["a.css"] == nil)
    }

    /// A template that does not compile throws every time, and the last good theme stays kept.
    @Test func aBrokenTemplateIsNotKept() throws {
        let cache = ThemeCache()
        let good = try cache.theme(siteTemplates: template("Hi {{name}}"), siteAssets: [:])
        for _ in 0..<2 {
            #expect(throws: DiagnosticError.self) {
                try cache.theme(siteTemplates: template("Hi {{#name}}"), siteAssets: [:])
            }
        }
        let again = try cache.theme(siteTemplates: template("Hi {{name}}"), siteAssets: [:])
        #expect(again.templates === good.templates)
    }
}
