/// The tasks a view model runs to follow its client; cancelled when the view model goes
/// (this object's `deinit`), so a dismissed screen stops listening by itself.
final class ObservationTasks: Sendable {
    private let tasks: [Task<Void, Never>]

    init(_ tasks: [Task<Void, Never>]) {
        self.tasks = tasks
    }

    deinit {
        for task in tasks { task.cancel() }
    }
}
