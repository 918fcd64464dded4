// Package dataset streams game records from a folder, a single .sgf file or a .tar, .tar.gz or .tar.xz
// archive, one file at a time, with filters and per-file errors that are counted rather than fatal.
package dataset
