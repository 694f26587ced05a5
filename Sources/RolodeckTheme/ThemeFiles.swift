/// The default theme, built into the binary: every file of `Templates/` and `Public/`.
///
/// SwiftPM embeds each file's bytes as `PackageResources.<file_name>`; this table gives them
/// back their paths. A test compares it with the folders, so a theme file that is added but not
/// listed here fails the tests instead of silently missing from the binary.
public enum ThemeFiles {
    /// Bytes by path relative to the package root, e.g. `Templates/layout.mustache`.
    public static let all: [String: [UInt8]] = [
        "Templates/layout.mustache": PackageResources.layout_mustache,
        "Templates/contact-list.mustache": PackageResources.contact_list_mustache,
        "Templates/index.mustache": PackageResources.index_mustache,
        "Templates/contact.mustache": PackageResources.contact_mustache,
        "Templates/groups.mustache": PackageResources.groups_mustache,
        "Templates/group.mustache": PackageResources.group_mustache,
        "Templates/todos.mustache": PackageResources.todos_mustache,
        "Templates/todo-item.mustache": PackageResources.todo_item_mustache,
        "Templates/not-found.mustache": PackageResources.not_found_mustache,
        "Templates/birthdays.mustache": PackageResources.birthdays_mustache,
        "Templates/search-form.mustache": PackageResources.search_form_mustache,
        "Templates/section.mustache": PackageResources.section_mustache,
        "Templates/section-index.mustache": PackageResources.section_index_mustache,
        "Templates/page-jump-bar.mustache": PackageResources.page_jump_bar_mustache,
        "Templates/pager.mustache": PackageResources.pager_mustache,
        "Public/style.css": PackageResources.style_css,
        "Public/search.js": PackageResources.search_js,
        "Public/jump.js": PackageResources.jump_js,
        "Public/favicon.svg": PackageResources.favicon_svg,
    ]
}
