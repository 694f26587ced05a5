/// The manual's prose: what help leaves out. The commands and options themselves come from their
/// definitions, so the manual, `--help` and the completions never disagree.
enum ManualText {
    /// The DESCRIPTION section, one paragraph per element.
    static let description = [
        """
        rolodeck turns a store of contacts, groups and todos (JSON files, vCard 2.1 to 4.0 files, \
        iCalendar todos) into a static website: a directory sectioned and sorted by the rules of its \
        language, a page per contact, group pages, a todo page, and a search box that works without \
        a server. The site works opened straight from disk and from any static web server.
        """,
        """
        A site folder holds rolodeck.json, the config, and store/, the data. A build reads and checks \
        everything first; any problem is printed with its file, line and column, and the build stops \
        without touching the output. The new site is assembled beside the output folder and swapped \
        in with one atomic rename, so the folder that holds the output must be writable. Only files \
        whose bytes changed are written, and a build whose inputs are unchanged writes nothing.
        """,
    ]

    /// The environment variables rolodeck reads, with what each does.
    static let environment: [(String, String)] = [
        (
            "SOURCE_DATE_EPOCH",
            "Seconds since 1970 (UTC) used as today's date for ages and birthdays, so that a build "
                + "can be reproduced byte for byte."
        ),
    ]

    /// The FILES section.
    static let files: [(String, String)] = [
        ("DIR/rolodeck.json", "The site's config: title, locale, sorting, hidden fields, output folder."),
        (
            "DIR/store/",
            "The store: contacts.json or contacts/ (one JSON or vCard file per contact), groups.json, "
                + "salutations.json, todos.json or .ics files."
        ),
        (
            "DIR/Templates/, DIR/Public/",
            "The site's own templates and static files, used instead of the built-in ones of the same name."
        ),
        ("DIR/_site/", "The output, unless the config or --out says otherwise."),
    ]

    /// The EXAMPLES section: a command line and what it does.
    static let examples: [(String, String)] = [
        ("rolodeck init mysite", "Create a site folder with a small sample store."),
        ("rolodeck serve --site mysite", "Build, and preview with live reload while you edit."),
        (
            "rolodeck build --quiet --site /srv/contacts --out /var/www/contacts/site",
            "From cron: print nothing but warnings and errors."
        ),
        (
            "rolodeck completion bash > ~/.local/share/bash-completion/completions/rolodeck",
            "Install bash completion for one user."
        ),
    ]
}
