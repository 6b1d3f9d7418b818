import GestureConfig

/// Parses `text` as the file `config.yaml` and returns what `gestured check` would print.
func check(_ text: String) -> [String] {
    ConfigLoader.parse(text, file: "config.yaml").1.map(\.description)
}

func parse(_ text: String) -> Config? {
    ConfigLoader.parse(text, file: "config.yaml").0
}

/// The repository root, from this file's path.
let repositoryRoot: String = {
    var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3)
    return parts.joined(separator: "/")
}()
