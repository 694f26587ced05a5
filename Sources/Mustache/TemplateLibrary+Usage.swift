/// What rendering one template of a library can reach: the templates it may render as partials
/// and parents, and the names its tags may look up. A site generator uses it to re-render only
/// the pages an edited template or a changed value can affect.
public struct TemplateUsage: Sendable, Equatable {
    /// Every template rendering may use, the template itself included.
    public var templates: Set<String>
    /// Every part of every name a tag looks up (`{{site.title}}` gives `site` and `title`).
    public var names: Set<String>
    /// Whether a dynamic partial or parent (`{{>*name}}`) is reachable. Its template is only
    /// known at render time, so `templates` and `names` then cover the whole library.
    public var isDynamic: Bool

    /// Creates a usage.
    public init(templates: Set<String>, names: Set<String>, isDynamic: Bool) {
        self.templates = templates
        self.names = names
        self.isDynamic = isDynamic
    }
}

extension TemplateLibrary {
    /// What rendering template `name` can reach, following partials and parents (and the
    /// blocks given to them); nil when the library has no such template. Worked out once per
    /// template: a watch asks it on every save of the library it keeps.
    public func usage(of name: String) -> TemplateUsage? {
        if let known = usages.withLock({ $0[name] }) { return known }
        guard let found = findUsage(of: name) else { return nil }
        usages.withLock { $0[name] = found }
        return found
    }

    /// What rendering template `name` can reach, worked out.
    private func findUsage(of name: String) -> TemplateUsage? {
        guard let start = indexByName[name] else { return nil }
        var visited: Set<Int> = []
        var pending = [start]
        var names: Set<String> = []
        var isDynamic = false
        while let index = pending.popLast() {
            guard visited.insert(index).inserted else { continue }
            Self.collect(templates[index].nodes, names: &names, templates: &pending, isDynamic: &isDynamic)
        }
        if isDynamic {
            // Any template may be named at render time, and whatever it uses with it.
            for index in templates.indices where !visited.contains(index) {
                Self.collect(
                    templates[index].nodes, names: &names, templates: &pending, isDynamic: &isDynamic)
            }
            visited = Set(templates.indices)
        }
        return TemplateUsage(
            templates: Set(visited.map { templates[$0].name }), names: names, isDynamic: isDynamic)
    }

    private static func collect(
        _ nodes: [Node], names: inout Set<String>, templates: inout [Int],
        isDynamic: inout Bool
    ) {
        for node in nodes {
            switch node {
            case .text, .lineStart:
                break
            case .variable(let name, _):
                names.formUnion(name.object.components)
            case .section(let section), .invertedSection(let section):
                names.formUnion(section.object.name.components)
                collect(section.object.body, names: &names, templates: &templates, isDynamic: &isDynamic)
            case .partial(let call):
                target(call.object.target, names: &names, templates: &templates, isDynamic: &isDynamic)
            case .parent(let parent):
                let parent = parent.object
                target(parent.call.target, names: &names, templates: &templates, isDynamic: &isDynamic)
                for block in parent.overrides {
                    collect(block.body, names: &names, templates: &templates, isDynamic: &isDynamic)
                }
            case .block(let block):
                collect(block.object.body, names: &names, templates: &templates, isDynamic: &isDynamic)
            }
        }
    }

    private static func target(
        _ target: PartialTarget, names: inout Set<String>, templates: inout [Int],
        isDynamic: inout Bool
    ) {
        switch target {
        case .resolved(let index):
            templates.append(index)
        case .missing:
            break
        case .dynamic(let name, _):
            names.formUnion(name.components)
            isDynamic = true
        }
    }
}
