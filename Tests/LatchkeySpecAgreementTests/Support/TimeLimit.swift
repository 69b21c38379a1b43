import Testing

/// Swift Testing's `.timeLimit(.minutes(minutes))` where the OS has it (a clock API: iOS 16, macOS 13); on older
/// systems a trait that changes nothing. The limit is a safety valve for a hung test, never part of an assertion.
/// - Parameter minutes: The limit.
/// - Returns: The trait.
func timeLimit(minutes: Int) -> any SuiteTrait & TestTrait {
    guard #available(macOS 13, iOS 16, tvOS 16, watchOS 9, *) else { return ConditionTrait.enabled(if: true) }
    return TimeLimitTrait.timeLimit(.minutes(minutes))
}
