/// Extra nginx configuration reproducing the origins of the field cases (Cases C01–C06, C14) and the
/// routes that point at them.
enum FieldCaseOrigin {
    /// `http`-level maps.
    static let httpConfig = #"""
    map "$http_authorization|$http_if_none_match" $c14_match {
        default 0; "Bearer t1|\"a1\"" 1; "Bearer t2|\"a2\"" 1; }
    map $http_authorization $c14_etag { default "\"a0\""; "Bearer t1" "\"a1\""; "Bearer t2" "\"a2\""; }
    map $http_if_none_match $c14zz_etag { default "\"zz\""; "" "\"a1\""; }
    """#

    /// `server`-level locations:
    /// - `/c01/`: U1's token would get U1's receipt; anyone else the catalog image (`max-age=60`).
    /// - `/c02/`: receipts with `private, max-age=300` and `Vary: Authorization`.
    /// - `/c03/`: t1 → the receipt, slowly (about 0.5 s); t2 → 403; none → 401.
    /// - `/c04/`: without a good token, 403 with `max-age=30`; with t1/t2 the receipt.
    /// - `/c05/`: catalog images with `private, max-age=300`.
    /// - `/c06/`: 418 when `X-Forwarded-Host` or `Forwarded` reach the origin, else the catalog image.
    /// - `/c06r/`: 302 to another host with `max-age=600`.
    /// - `/c14/`: receipts with a per-user ETag (`"a1"`, `"a2"`); 304 when `If-None-Match` matches it.
    /// - `/c14zz/`: receipts with ETag `"a1"`; any conditional request gets 304 with ETag `"zz"`.
    static let serverConfig = #"""
    location /c01/ {
        add_header Cache-Control "max-age=60";
        if ($origin_user = "u1") { rewrite ^ /receipts/r-7731.png last; }
        rewrite ^/c01/(.*)$ /catalog/$1 break;
    }
    location /c02/ {
        if ($origin_user = "") { return 401; }
        add_header Cache-Control "private, max-age=300";
        add_header Vary "Authorization";
        rewrite ^/c02/(.*)$ /receipts/$1 break;
    }
    location /c03/ {
        if ($origin_user = "") { return 401; }
        if ($origin_user = "u2") { return 403; }
        limit_rate 40k;
        add_header Cache-Control "private, max-age=60";
        rewrite ^/c03/(.*)$ /receipts/$1 break;
    }
    location /c04/ {
        if ($origin_user = "") { add_header Cache-Control "max-age=30" always; return 403; }
        add_header Cache-Control "private, max-age=60";
        rewrite ^/c04/(.*)$ /receipts/$1 break;
    }
    location /c05/ {
        add_header Cache-Control "private, max-age=300";
        rewrite ^/c05/(.*)$ /catalog/$1 break;
    }
    location /c06/ {
        if ($http_x_forwarded_host) { return 418; }
        if ($http_forwarded) { return 418; }
        add_header Cache-Control "public, max-age=600";
        rewrite ^/c06/(.*)$ /catalog/$1 break;
    }
    location /c06r/ {
        add_header Cache-Control "max-age=600" always;
        return 302 http://evil.example/catalog/horse-d29d871c.jpg;
    }
    location /c14/ {
        etag off;
        if_modified_since off;
        add_header ETag $c14_etag;
        add_header Cache-Control "private, max-age=600";
        if ($origin_user = "") { return 401; }
        if ($c14_match) { return 304; }
        rewrite ^/c14/(.*)$ /receipts/$1 break;
    }
    location /c14zz/ {
        etag off;
        if_modified_since off;
        add_header ETag $c14zz_etag;
        add_header Cache-Control "private, max-age=600";
        if ($origin_user = "") { return 401; }
        if ($http_if_none_match) { return 304; }
        rewrite ^/c14zz/(.*)$ /receipts/$1 break;
    }
    """#

    /// Routes for the locations above (mount = origin path).
    static let routes: [ServeEnvironment.Route] = [
        .init(name: "c01", mount: "/c01/", originPath: "/c01/", tier: "public"),
        .init(name: "c02", mount: "/c02/", originPath: "/c02/", tier: "private"),
        .init(name: "c03", mount: "/c03/", originPath: "/c03/", tier: "private"),
        .init(name: "c04", mount: "/c04/", originPath: "/c04/", tier: "private"),
        .init(name: "c05", mount: "/c05/", originPath: "/c05/", tier: "public"),
        .init(name: "c06", mount: "/c06/", originPath: "/c06/", tier: "public"),
        .init(name: "c06r", mount: "/c06r/", originPath: "/c06r/", tier: "public"),
        .init(name: "c14", mount: "/c14/", originPath: "/c14/", tier: "private"),
        .init(name: "c14zz", mount: "/c14zz/", originPath: "/c14zz/", tier: "private"),
    ]
}
