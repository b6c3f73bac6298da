package harness

// BearerParams exposes bearerParams to the external tests.
var BearerParams = bearerParams
