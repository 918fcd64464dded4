// Package gtp speaks the Go Text Protocol: a client that runs an engine such as GNU Go as a child process
// and drives it with typed commands.
package gtp
