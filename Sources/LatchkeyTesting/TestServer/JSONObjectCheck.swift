import Foundation

/// Checks a `JSONSerialization` object before it is serialized. On Apple platforms
/// `JSONSerialization.data(withJSONObject:)` raises an Objective-C exception (which Swift cannot catch, so the
/// process ends) for a NaN or an infinity, a non-string key or a value of another type; `try?` around it does
/// not help. Swift's `Double`, `Float`, `Int`… and `Bool` count as numbers, as `JSONSerialization` bridges them.
enum JSONObjectCheck {
    /// The first problem in `object`, as a message with its JSON pointer; `nil` when it serializes.
    /// - Parameters:
    ///   - object: A dictionary, array, string, number, bool or `NSNull`, nested at will.
    ///   - pointer: Where `object` is (for the message).
    static func problem(in object: Any, at pointer: String = "") -> String? {
        switch object {
        case is String, is NSNull, is Bool:
            return nil
        case let number as Double:
            return number.isFinite ? nil : nonFinite(number, at: pointer)
        case let number as Float:
            return number.isFinite ? nil : nonFinite(Double(number), at: pointer)
        case is any BinaryInteger:
            return nil
        case let number as NSNumber:
            return number.doubleValue.isFinite ? nil : nonFinite(number.doubleValue, at: pointer)
        case let array as [Any]:
            for (index, element) in array.enumerated() {
                if let problem = problem(in: element, at: pointer + "/\(index)") { return problem }
            }
            return nil
        case let dictionary as [String: Any]:
            for key in dictionary.keys.sorted() {
                let escaped = key.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
                if let problem = problem(in: dictionary[key]!, at: pointer + "/" + escaped) { return problem }
            }
            return nil
        case is [AnyHashable: Any]:
            return "an object with a key that is not a string at \(location(pointer))"
        default:
            return "a \(type(of: object)), which is not a JSON value, at \(location(pointer))"
        }
    }

    private static func nonFinite(_ number: Double, at pointer: String) -> String {
        "the number \(number), which JSON cannot express, at \(location(pointer))"
    }

    private static func location(_ pointer: String) -> String {
        pointer.isEmpty ? "the top level" : pointer
    }
}
