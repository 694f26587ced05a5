/// The files `rolodeck init` writes: a config and a store small enough to read in one go, with
/// one of each thing the store can hold.
enum StarterSite {
    /// Each file's path in the new site folder and its text.
    static let files: [(String, String)] = [
        (
            "rolodeck.json",
            """
            {
              "title": "My Contacts",
              "locale": "en",
              "sortBy": "familyName",
              "store": "store"
            }

            """
        ),
        (
            "store/contacts.json",
            """
            [
              {
                "id": "ada-lovelace",
                "salutation": "Ms.",
                "givenName": "Ada",
                "familyName": "Lovelace",
                "organization": "Analytical Engines Ltd",
                "title": "Programmer",
                "emails": [{"label": "work", "value": "ada@example.com"}],
                "phones": [{"label": "mobile", "value": "+44 20 7946 0001"}],
                "addresses": [{"label": "home", "street": "12 St James's Square", "postalCode": "SW1Y 4JH",
                               "city": "London", "country": "United Kingdom"}],
                "birthday": "1815-12-10",
                "groups": ["friends"],
                "notes": "Wrote the **first program**. See [her notes](https://example.com/notes)."
              },
              {
                "id": "mueller-juergen",
                "salutation": "Herr",
                "givenName": "Jürgen",
                "familyName": "Müller",
                "phones": [{"label": "work", "value": "+49 30 1234567"}],
                "birthday": "--05-20",
                "groups": ["friends"]
              },
              {
                "id": "kim-cheolsu",
                "givenName": "철수",
                "familyName": "김",
                "phones": [{"label": "mobile", "value": "+82 10 1234 5678"}]
              }
            ]

            """
        ),
        (
            "store/groups.json",
            """
            [
              {"id": "friends", "name": "Friends"}
            ]

            """
        ),
        (
            "store/todos.json",
            """
            [
              {"id": "call-ada", "title": "Call Ada about the engine", "contact": "ada-lovelace", "priority": "high"},
              {"id": "birthday-card", "title": "Send Jürgen a birthday card", "done": true}
            ]

            """
        ),
    ]
}
