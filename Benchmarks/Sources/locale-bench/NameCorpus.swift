/// Deterministic synthetic contact names for benchmarking, per locale.
struct NameCorpus {
    /// A contact as the directory sees it.
    struct Contact {
        /// The sort string that decides the section and the order.
        let primary: String
        /// The sort string that breaks ties.
        let secondary: String
        /// The contact's id.
        let id: String
    }

    private static let englishFamily = """
        Smith Johnson Williams Brown Jones Garcia Miller Davis Rodriguez Martinez Hernandez Lopez Gonzalez \
        Wilson Anderson Thomas Taylor Moore Jackson Martin Lee Perez Thompson White Harris Sanchez Clark \
        Ramirez Lewis Robinson Walker Young Allen King Wright Scott Torres Nguyen Hill Flores Green Adams \
        Nelson Baker Hall Rivera Campbell Mitchell Carter Roberts Gomez Phillips Evans Turner Diaz Parker \
        Cruz Edwards Collins Reyes Stewart Morris Morales Murphy Cook Rogers Gutierrez Ortiz Morgan Cooper \
        Peterson Bailey Reed Kelly Howard Ramos Kim Cox Ward Richardson Watson Brooks Chavez Wood James \
        Bennett Gray Mendoza Ruiz Hughes Price Alvarez Castillo Sanders Patel Myers Long Ross Foster \
        O'Brien O’Neill D'Angelo van\u{20}der\u{20}Berg de\u{20}la\u{20}Cruz McDonald MacLeod Émile Zoë Núñez Øvergaard
        """.split(separator: " ").map { $0.replacingOccurrences(of: "\u{20}", with: " ") }
    private static let englishGiven = """
        James Mary John Patricia Robert Jennifer Michael Linda William Elizabeth David Barbara Richard Susan \
        Joseph Jessica Thomas Sarah Charles Karen Christopher Nancy Daniel Lisa Matthew Betty Anthony Margaret \
        Mark Sandra Donald Ashley Steven Kimberly Paul Emily Andrew Donna Joshua Michelle Kenneth Dorothy \
        Kevin Carol Brian Amanda George Melissa Edward Deborah Ronald Stephanie Timothy Rebecca Jason Sharon \
        Jeffrey Laura Ryan Cynthia Jacob Kathleen Gary Amy Nicholas Shirley Eric Angela Jonathan Helen \
        Chloé José André Renée
        """.split(separator: " ").map(String.init)
    private static let germanFamily = """
        Müller Schmidt Schneider Fischer Weber Meyer Wagner Becker Schulz Hoffmann Schäfer Koch Bauer \
        Richter Klein Wolf Schröder Neumann Schwarz Zimmermann Braun Krüger Hofmann Hartmann Lange Schmitt \
        Werner Schmitz Krause Meier Lehmann Schmid Schulze Maier Köhler Herrmann König Walter Mayer Huber \
        Kaiser Fuchs Peters Lang Scholz Möller Weiß Jung Hahn Schubert Vogel Friedrich Keller Günther Frank \
        Berger Winkler Roth Beck Lorenz Baumann Franke Albrecht Schuster Simon Ludwig Böhm Winter Kraus \
        Martin Schumacher Krämer Vogt Stein Jäger Otto Sommer Groß Seidel Heinrich Brandt Haas Schreiber \
        Graf Schulte Dietrich Ziegler Kuhn Kühn Pohl Engel Horn Busch Bergmann Thomas Voigt Sauer Arnold \
        Wolff Pfeiffer Ostermann Özdemir Yılmaz Straße
        """.split(separator: " ").map(String.init)
    private static let germanGiven = """
        Maria Ursula Monika Petra Elisabeth Sabine Renate Helga Karin Brigitte Ingrid Erika Andrea Gisela \
        Claudia Susanne Gabriele Christa Christine Hildegard Anna Birgit Barbara Gertrud Peter Michael \
        Thomas Andreas Wolfgang Klaus Jürgen Günter Stefan Christian Uwe Werner Horst Frank Dieter Manfred \
        Gerhard Hans Bernd Torsten Matthias Jörg Jörn Björn Søren Zoë
        """.split(separator: " ").map(String.init)
    private static let swedishFamily = """
        Andersson Johansson Karlsson Nilsson Eriksson Larsson Olsson Persson Svensson Gustafsson Pettersson \
        Jonsson Jansson Hansson Bengtsson Jönsson Lindberg Jakobsson Magnusson Olofsson Lindström Lindqvist \
        Lindgren Berg Axelsson Bergström Lundberg Lind Lundgren Lundqvist Mattsson Berglund Fredriksson \
        Sandberg Henriksson Forsberg Sjöberg Wallin Engström Eklund Danielsson Lundin Håkansson Björk \
        Bergman Gunnarsson Holm Wikström Samuelsson Isaksson Fransson Bergqvist Nyström Holmberg Arvidsson \
        Löfgren Söderberg Nyberg Blomqvist Claesson Nordström Mårtensson Lundström Åberg Ågren Ängström \
        Öberg Östlund Ekström Ström Åkesson Ödman Ährling Ølund Ürban
        """.split(separator: " ").map(String.init)
    private static let koreanFamily = "김 김 김 이 이 이 박 박 최 정 강 조 윤 장 임 한 오 서 신 권 황 안 송 류 전 홍 고 문 양 손 배 백 허 유 남 심 노 하 곽 성 차 주 우 구 민 진 나 지 엄 변 채 원 천 방 공 현 함 염 여 추 도 소 석 선 설 마 길 연 위 표 명 기 반 라 왕 금 옥 육 인 맹 제 모 탁 국 어 은 편 용 예 경 봉 사 부 황보 남궁 제갈 선우"
        .split(separator: " ").map(String.init)
    private static let koreanSyllables = "민 서 지 현 수 준 영 우 은 하 윤 진 성 재 연 정 혜 승 동 희 경 유 상 미 주 원 태 소 예 도 건 가 나 다 라 채 아 인 호 석 규 훈 선 혁 빈 찬 한 별 솔 결 든 람 슬 새 봄 솜 까 따 빠 싸 짜"
        .split(separator: " ").map(String.init)
    private static let japaneseFamily = """
        さとう すずき たかはし たなか いとう わたなべ やまもと なかむら こばやし かとう よしだ やまだ \
        ささき やまぐち まつもと いのうえ きむら はやし しみず やまざき もり あべ いけだ はしもと やました \
        いしかわ なかじま まえだ ふじた おがわ ごとう おかだ はせがわ むらかみ こんどう いしい さいとう \
        さかもと えんどう あおき ふじい にしむら ふくだ おおた みうら ふじわら おかもと まつだ なかがわ \
        ナカノ ハラダ オノ タムラ タケウチ カネコ ワダ ナカヤマ イシダ ウエダ モリタ ハラ シバタ サカイ クドウ \
        ﾖｺﾔﾏ ﾐﾔｻﾞｷ ヴァレンティノ ゔぃん んじゃめな 山田 渡辺
        """.split(separator: " ").map(String.init)
    private static let japaneseGiven = """
        ひろし たかし あきら まこと けんじ ゆうき だいすけ しょうた こうへい たくや ゆい はると そうた \
        ゆうと ゆな めい さくら ゆいな りこ ひまり はな ようこ けいこ じゅんこ ゆみこ まゆみ なおみ えみ \
        ゆか あい みほ リョウ ケン ミキ サチコ
        """.split(separator: " ").map(String.init)

    private var random: SplitMix64

    /// Creates a corpus with a fixed seed so every run sorts the same names.
    init(seed: UInt64) {
        random = SplitMix64(seed: seed)
    }

    /// `count` contacts typical of a directory whose site locale is `locale`,
    /// with a fifth of the names from other scripts (mixed directories).
    mutating func contacts(count: Int, locale: String, uniqueNames: Bool) -> [Contact] {
        (0..<count).map { index in
            let roll = random.next(below: 10)
            var name: (String, String)
            if roll < 8 {
                name = native(locale)
            } else if roll == 8 {
                name = locale == "ko" ? japanese() : korean()
            } else {
                name = locale == "ko" || locale == "ja" ? pick(Self.englishFamily, Self.englishGiven) : japanese()
            }
            if uniqueNames { name.0 += " \(name.1) \(index)" }
            return Contact(primary: name.0, secondary: name.1, id: "c\(index)")
        }
    }

    private mutating func native(_ locale: String) -> (String, String) {
        switch locale {
        case "ko": return korean()
        case "ja": return japanese()
        case "de": return pick(Self.germanFamily, Self.germanGiven)
        case "sv": return pick(Self.swedishFamily, Self.germanGiven)
        default: return pick(Self.englishFamily, Self.englishGiven)
        }
    }

    private mutating func pick(_ family: [String], _ given: [String]) -> (String, String) {
        (family[random.next(below: family.count)], given[random.next(below: given.count)])
    }

    private mutating func korean() -> (String, String) {
        let first = Self.koreanSyllables[random.next(below: Self.koreanSyllables.count)]
        let second = Self.koreanSyllables[random.next(below: Self.koreanSyllables.count)]
        return (Self.koreanFamily[random.next(below: Self.koreanFamily.count)], first + second)
    }

    private mutating func japanese() -> (String, String) {
        pick(Self.japaneseFamily, Self.japaneseGiven)
    }
}

/// A small, seedable pseudo-random generator (SplitMix64).
struct SplitMix64 {
    private var state: UInt64

    /// A generator that starts from `seed`.
    init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound`.
    mutating func next(below bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }
}
