import MediaCore
/// Targeted cache control (RFC 9213): a field such as `CDN-Cache-Control` whose directives replace
/// `Cache-Control` and `Expires` for the caches it targets.
///
/// §2.1: the cache takes the first field of its target list (in list order) that has a valid, non-empty
/// value, parsed as a Structured Field Dictionary (``StructuredDictionary``); when there is one, it uses
/// those directives for storage and freshness and ignores `Cache-Control` and `Expires`; otherwise it
/// uses them as usual. A field that is not a valid Dictionary, or whose known directive has the wrong type
/// (`max-age="60"`, `max-age=-1`, `no-store=5`), is ignored as a whole. Directive names are read
/// case-insensitively; unknown directives are ignored.
///
/// Directives and their types: `max-age`, `s-maxage`, `stale-while-revalidate`, `stale-if-error`:
/// non-negative Integer (more than 2,147,483,648 is 2,147,483,648); `no-store`, `no-cache`, `private`,
/// `public`, `must-revalidate`, `proxy-revalidate`, `must-understand`, `immutable`, `no-transform`: Boolean
/// (`?0` is absent); `no-cache` and `private` may instead carry field names, as a String (`"a, b"`) or
/// an Inner List of Strings or Tokens: the qualified forms.
public enum TargetedCacheControl {
    /// The default target list of a shared cache: `["CDN-Cache-Control"]`; a private cache has none.
    public static let sharedDefault = ["CDN-Cache-Control"]

    /// The directives of the first targeted field of `targets` (names, any case) in `fields` with a valid,
    /// non-empty value, or `nil` when there is none (then `Cache-Control` and `Expires` apply).
    /// Several lines of one field are combined (RFC 9110 §5.3) before parsing.
    public static func select(_ fields: HTTPFields, targets: [String]) -> CacheControl? {
        for target in targets {
            var combined = ""
            var present = false
            for field in fields where HTTPFields.namesEqual(field.name, target) && !field.value.isEmpty {
                if present { combined += ", " }
                combined += field.value
                present = true
            }
            guard present, let dictionary = StructuredDictionary(combined), !dictionary.members.isEmpty,
                  let directives = cacheControl(dictionary) else { continue }
            return directives
        }
        return nil
    }

    /// Whether any of `targets` is present in `fields` (cheap: no parsing).
    public static func isPresent(in fields: HTTPFields, targets: [String]) -> Bool {
        targets.contains { fields.contains(HTTPFieldName($0)) }
    }

    /// The dictionary's directives as a ``CacheControl``, or `nil` when a known directive has the wrong type.
    static func cacheControl(_ dictionary: StructuredDictionary) -> CacheControl? {
        var out = CacheControl()
        for (key, value) in dictionary.members {
            switch key {
            case "max-age", "s-maxage", "stale-while-revalidate", "stale-if-error":
                guard case .integer(let number) = value, number >= 0 else { return nil }
                let seconds = min(number, maximumDeltaSeconds)
                switch key {
                case "max-age": out.maxAge = seconds
                case "s-maxage": out.sharedMaxAge = seconds
                case "stale-while-revalidate": out.staleWhileRevalidate = seconds
                default: out.staleIfError = seconds
                }
            case "no-cache", "private":
                if case .boolean(let flag) = value {
                    if key == "no-cache" { out.noCache = out.noCache || flag } else { out.isPrivate = out.isPrivate || flag }
                    continue
                }
                guard let names = fieldNames(value) else { return nil }
                if names.isEmpty {
                    if key == "no-cache" { out.noCache = true } else { out.isPrivate = true }
                } else if key == "no-cache" {
                    out.noCacheFieldNames = names
                } else {
                    out.privateFieldNames = names
                }
            case "no-store", "public", "must-revalidate", "proxy-revalidate", "must-understand", "immutable", "no-transform":
                guard case .boolean(let flag) = value else { return nil }
                guard flag else { continue }
                switch key {
                case "no-store": out.noStore = true
                case "public": out.isPublic = true
                case "must-revalidate": out.mustRevalidate = true
                case "proxy-revalidate": out.proxyRevalidate = true
                case "must-understand": out.mustUnderstand = true
                case "immutable": out.immutable = true
                default: out.noTransform = true
                }
            default:
                continue
            }
        }
        return out
    }

    /// Lower-cased field names of a qualified `no-cache`/`private`: a String list or an Inner List.
    static func fieldNames(_ value: StructuredDictionary.Value) -> [String]? {
        switch value {
        case .string(let text):
            return text.split(separator: ",").map { String(HTTPFieldList.trimOWS($0)).lowercased() }.filter { !$0.isEmpty }
        case .innerList(let items):
            var names: [String] = []
            for item in items {
                switch item {
                case .string(let name), .token(let name): names.append(name.lowercased())
                default: return nil
                }
            }
            return names
        default:
            return nil
        }
    }
}
