import Foundation
#if canImport(FoundationXML)
    import FoundationXML
#endif

/// An XML document parsed by Foundation's `XMLParser` (libxml2 on Linux) into elements.
final class XMLNode {
    let name: String
    let attributes: [String: String]
    var children: [XMLNode] = []
    /// The character data directly inside the element (entities resolved).
    var text = ""

    init(name: String, attributes: [String: String]) {
        self.name = name
        self.attributes = attributes
    }

    /// Children named `name`.
    func elements(_ name: String) -> [XMLNode] { children.filter { $0.name == name } }

    /// Every descendant named `name`, depth first.
    func descendants(_ name: String) -> [XMLNode] {
        children.flatMap { ($0.name == name ? [$0] : []) + $0.descendants(name) }
    }

    struct ParseError: Error, CustomStringConvertible {
        let description: String
    }

    /// Parses `text`; throws on any well-formedness error.
    static func parse(_ text: String) throws -> XMLNode {
        let builder = Builder()
        let parser = XMLParser(data: Data(text.utf8))
        parser.delegate = builder
        guard parser.parse(), let root = builder.root else {
            throw ParseError(description: "\(parser.parserError.map { "\($0)" } ?? "no root") at line \(parser.lineNumber)")
        }
        return root
    }

    private final class Builder: NSObject, XMLParserDelegate {
        var stack: [XMLNode] = []
        var root: XMLNode?

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            let node = XMLNode(name: elementName, attributes: attributes)
            if let parent = stack.last { parent.children.append(node) } else { root = node }
            stack.append(node)
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
            stack.removeLast()
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            stack.last?.text += string
        }
    }
}
