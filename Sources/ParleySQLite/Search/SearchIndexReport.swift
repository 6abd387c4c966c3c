/// What the writer's search indexing (`SearchIndexer`) tells the server about itself, for its
/// log: the store has no logger of its own. A failed step loses nothing (the messages stay
/// searchable by reading the unindexed tail, and the next step tries again), but a step that
/// keeps failing lets the tail, and every search's cost, grow: an operator must see it.
public enum SearchIndexReport: Sendable, Equatable {
    /// A step failed. Reported for the first failure of a run and then at the 10th, 100th,
    /// 1,000th… in a row, so a lasting failure stays visible without a line every interval.
    /// `waiting`: the messages not yet indexed, as the indexer counts them.
    case stepFailed(reason: String, failedSteps: Int, waiting: Int)
    /// A step succeeded after `failedSteps` failures in a row.
    case recovered(failedSteps: Int)
}
