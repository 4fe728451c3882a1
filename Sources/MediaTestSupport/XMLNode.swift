import Foundation
#if canImport(FoundationXML)
    import FoundationXML
#endif

/// An XML document parsed by Foundation's `XMLParser` (libxml2 on Linux) into elements: each node has its
/// name, attributes, child elements and the character data directly inside it. Build one with ``parse(_:)``.
public final class XMLNode {
    public let name: String
    public let attributes: [String: String]
    public var children: [XMLNode] = []
    /// The character data directly inside the element (entities resolved).
    public var text = ""

    public init(name: String, attributes: [String: String]) {
        self.name = name
        self.attributes = attributes
    }

    /// Children named `name`.
    public func elements(_ name: String) -> [XMLNode] { children.filter { $0.name == name } }

    /// Every descendant named `name`, depth first.
    public func descendants(_ name: String) -> [XMLNode] {
        children.flatMap { ($0.name == name ? [$0] : []) + $0.descendants(name) }
    }

    /// Why a text is not well-formed XML (the parser's error and line).
    public struct ParseError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Parses `text`; throws on any well-formedness error.
    public static func parse(_ text: String) throws -> XMLNode {
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
