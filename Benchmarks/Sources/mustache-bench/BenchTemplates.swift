/// The templates and contexts the benchmark renders: a layout, a page and two partials.
enum BenchTemplates {
    /// A site layout with blocks for the title and the content.
    static let layout = """
        <!DOCTYPE html>
        <html lang="{{site.lang}}">
        <head>
          <meta charset="utf-8">
          <title>{{$title}}{{site.name}}{{/title}}</title>
        </head>
        <body>
          <header>
            {{>nav}}
          </header>
          <main>
            {{$content}}{{/content}}
          </main>
          <footer>&copy; {{site.year}} {{site.name}}</footer>
        </body>
        </html>

        """

    /// A page that fills the layout's blocks and lists its items through a partial.
    static let page = """
        {{<layout}}
        {{$title}}{{page.title}} · {{site.name}}{{/title}}
        {{$content}}
        <article>
          <h1>{{page.title}}</h1>
          <p class="lede">{{page.summary}}</p>
          <ul class="cards">
            {{#page.items}}
            {{>card}}
            {{/page.items}}
          </ul>
          {{^page.items}}<p>Nothing here.</p>{{/page.items}}
        </article>
        {{/content}}
        {{/layout}}

        """

    /// One list item.
    static let card = """
        <li class="card{{#featured}} featured{{/featured}}">
          <a href="{{url}}">{{title}}</a>
          <span>{{price}}</span>{{#tags}} <em>{{.}}</em>{{/tags}}
        </li>

        """

    /// The site navigation.
    static let nav = """
        <nav>{{#site.menu}}<a href="{{href}}">{{label}}</a>{{/site.menu}}</nav>

        """

    /// All templates by name.
    static let all = ["layout": layout, "page": page, "card": card, "nav": nav]

    /// The context for page number `index`: ten items whose text depends on the index.
    static func context(_ index: Int) -> [String: Any] {
        let menu: [[String: Any]] = [
            ["href": "/", "label": "Home"], ["href": "/blog/", "label": "Blog"],
            ["href": "/about/", "label": "About & contact"],
        ]
        let site: [String: Any] = ["name": "Rolodeck", "lang": "en", "year": 2026, "menu": menu]
        var items: [[String: Any]] = []
        for item in 0..<10 {
            let price = Double(index % 100) + Double(item) / 4
            let tags: [String] = item % 2 == 0 ? ["new", "sale"] : []
            items.append([
                "title": "Item \(index)-\(item) <\"quoted\">", "url": "/items/\(index)/\(item)/",
                "price": price, "featured": item % 3 == 0, "tags": tags,
            ])
        }
        let page: [String: Any] = [
            "title": "Page \(index)", "summary": "Summary of page \(index).", "items": items,
        ]
        return ["site": site, "page": page]
    }
}
