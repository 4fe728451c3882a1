import MediaCore
extension Freshness {
    /// The `Date` value (RFC 9110 §6.6.1), or `responseTime` when `Date` is absent or invalid.
    public static func dateValue(_ fields: HTTPFields, responseTime: EpochSeconds) -> EpochSeconds {
        fields.values(for: .date).first.flatMap { HTTPDate.parse($0) } ?? responseTime
    }

    /// The current age in seconds (§4.2.3), computed without overflow and clamped to
    /// `0 ... 2147483648`:
    /// `apparent_age = max(0, response_time − date_value)`,
    /// `response_delay = response_time − request_time`,
    /// `corrected_age_value = age_value + response_delay`,
    /// `corrected_initial_age = max(apparent_age, corrected_age_value)`,
    /// `resident_time = now − response_time`, `current_age = corrected_initial_age + resident_time`.
    /// - Parameters:
    ///   - ageValue: the received `Age` (0 when absent or invalid).
    ///   - dateValue: the received `Date` (see ``dateValue(_:responseTime:)``).
    public static func currentAge(
        ageValue: Int64, dateValue: EpochSeconds, requestTime: EpochSeconds, responseTime: EpochSeconds, now: EpochSeconds
    ) -> Int64 {
        let apparentAge = max(0, responseTime.saturatingSubtract(dateValue)).clampedDeltaSeconds
        let responseDelay = max(0, responseTime.saturatingSubtract(requestTime)).clampedDeltaSeconds
        let correctedAgeValue = ageValue.clampedDeltaSeconds.saturatingAdd(responseDelay)
        let correctedInitialAge = max(apparentAge, correctedAgeValue)
        let residentTime = max(0, now.saturatingSubtract(responseTime)).clampedDeltaSeconds
        return correctedInitialAge.saturatingAdd(residentTime).clampedDeltaSeconds
    }
}
