// Package gtp speaks the Go Text Protocol: a client that runs an engine such as GNU Go as a child process
// and drives it with typed commands, and a server (Server) that makes Aji a GTP engine — the standard
// commands of GTP version 2 with a Player choosing the moves, a Monte Carlo Scorer for final_score and
// final_status_list, and GoGui analyze commands that draw heat maps, territory and search candidates.
package gtp
