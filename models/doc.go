// Package models holds Aji's trained model files and the one container format they all use: a header
// (magic, kind, format version, feature-set version, payload length, CRC-32C) and a payload that each
// kind encodes itself. Default models are embedded so the program works with no setup.
package models
