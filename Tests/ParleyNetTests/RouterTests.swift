import Testing
@testable import ParleyNet

@Suite struct RouterTests {
    private func router() -> Router<String> {
        var builder = RouterBuilder<String>()
        builder.add(.get, "/", "root")
        builder.add(.get, "/v1/users", "list users")
        builder.add(.post, "/v1/users", "create user")
        builder.add(.get, "/v1/users/me", "me")
        builder.add(.get, "/v1/users/:id", "user")
        builder.add(.delete, "/v1/users/:userID", "delete user")
        builder.add(.get, "/v1/users/:id/posts/:post", "post")
        builder.add(.put, "/v1/users/me/settings", "settings")
        builder.add(.get, "/static/*", "static")
        builder.add(.head, "/only-head", "head only")
        return builder.build()
    }

    private func found(_ match: RouteMatch<String>) -> (String, [String: String])? {
        if case .found(let handler, let parameters) = match { return (handler, parameters) }
        return nil
    }

    private func allowed(_ match: RouteMatch<String>) -> [HTTPMethod]? {
        if case .methodNotAllowed(let allowed) = match { return allowed }
        return nil
    }

    private func isNotFound(_ match: RouteMatch<String>) -> Bool {
        if case .notFound = match { return true }
        return false
    }

    @Test func literalRoutes() {
        let router = router()
        #expect(found(router.match(method: .get, path: "/"))?.0 == "root")
        #expect(found(router.match(method: .get, path: "/v1/users"))?.0 == "list users")
        #expect(found(router.match(method: .post, path: "/v1/users"))?.0 == "create user")
        #expect(found(router.match(method: .get, path: "/v1/users"))?.1 == [:])
    }

    @Test func parametersAreBoundAndDecoded() {
        let router = router()
        #expect(found(router.match(method: .get, path: "/v1/users/42"))?.1 == ["id": "42"])
        #expect(found(router.match(method: .get, path: "/v1/users/a%20b%2Fc"))?.1 == ["id": "a b/c"])
        #expect(found(router.match(method: .delete, path: "/v1/users/7"))?.1 == ["userID": "7"])
        let post = found(router.match(method: .get, path: "/v1/users/9/posts/x%2B1"))
        #expect(post?.0 == "post")
        #expect(post?.1 == ["id": "9", "post": "x+1"])
    }

    @Test func literalsWinOverParametersAndBacktrack() {
        let router = router()
        #expect(found(router.match(method: .get, path: "/v1/users/me"))?.0 == "me")
        // `me` is a literal, but only `:id` leads on to posts.
        #expect(found(router.match(method: .get, path: "/v1/users/me/posts/1"))?.1 == ["id": "me", "post": "1"])
        // The literal route has no DELETE; the parameter route has.
        #expect(found(router.match(method: .delete, path: "/v1/users/me"))?.0 == "delete user")
        // An encoded literal still matches the literal.
        #expect(found(router.match(method: .get, path: "/v1/users/%6De"))?.0 == "me")
    }

    @Test func catchAllTakesTheRestStillEncoded() {
        let router = router()
        #expect(found(router.match(method: .get, path: "/static/css/app.css"))?.1 == ["*": "css/app.css"])
        #expect(found(router.match(method: .get, path: "/static/a%2Fb/c"))?.1 == ["*": "a%2Fb/c"])
        #expect(found(router.match(method: .get, path: "/static/"))?.1 == ["*": ""])
        #expect(found(router.match(method: .get, path: "/static"))?.1 == ["*": ""])
    }

    @Test func wrongMethodIs405WithTheAllowedList() {
        let router = router()
        #expect(allowed(router.match(method: .put, path: "/v1/users")) == [.get, .head, .post])
        // Both `me` and `:id` match: the list is the union.
        #expect(allowed(router.match(method: .patch, path: "/v1/users/me")) == [.delete, .get, .head])
        #expect(allowed(router.match(method: .get, path: "/v1/users/me/settings")) == [.put])
        #expect(allowed(router.match(method: .get, path: "/only-head")) == [.head])
    }

    @Test func headMatchesGetRoutes() {
        let router = router()
        #expect(found(router.match(method: .head, path: "/v1/users/3"))?.0 == "user")
        #expect(found(router.match(method: .head, path: "/only-head"))?.0 == "head only")
        #expect(found(router.match(method: .head, path: "/static/x"))?.0 == "static")
    }

    @Test func unknownOrMalformedPathsAreNotFound() {
        let router = router()
        #expect(isNotFound(router.match(method: .get, path: "/v2")))
        #expect(isNotFound(router.match(method: .get, path: "/v1/users/")))
        #expect(isNotFound(router.match(method: .get, path: "/v1//users")))
        #expect(isNotFound(router.match(method: .get, path: "/v1/users/%zz")))
        #expect(isNotFound(router.match(method: .get, path: "/v1/users/%00")))
        #expect(isNotFound(router.match(method: .get, path: "v1/users")))
        #expect(isNotFound(router.match(method: .get, path: "")))
        #expect(isNotFound(RouterBuilder<String>().build().match(method: .get, path: "/")))
    }

    @Test func rootCatchAllIsAFallback() {
        var builder = RouterBuilder<Int>()
        builder.add(.get, "/*", 1)
        builder.add(.get, "/v1/ping", 2)
        let router = builder.build()
        guard case .found(1, let parameters) = router.match(method: .get, path: "/") else {
            Issue.record("expected the fallback")
            return
        }
        #expect(parameters == ["*": ""])
        guard case .found(2, _) = router.match(method: .get, path: "/v1/ping") else {
            Issue.record("expected the literal route")
            return
        }
        guard case .found(1, let rest) = router.match(method: .get, path: "/v1/pong") else {
            Issue.record("expected the fallback")
            return
        }
        #expect(rest == ["*": "v1/pong"])
    }

    @Test func routerIsSendableWhenHandlersAre() {
        typealias Handler = @Sendable (HTTPRequest) -> HTTPResponse
        var builder = RouterBuilder<Handler>()
        builder.add(.get, "/ping") { _ in HTTPResponse(status: .ok) }
        let router: any Sendable = builder.build()
        #expect(router is Router<Handler>)
    }
}
