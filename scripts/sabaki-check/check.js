#!/usr/bin/env node
// Parses an SGF file with Sabaki's parser (@sabaki/sgf, the version package.json pins) and prints the
// main line of its first game as JSON: {"nodes": [{"B": ["pd"], "C": ["..."], ...}, ...]}, each node's
// properties with their unescaped values, root first. Aji's tests compare it with Aji's own reading of
// the files Aji writes. Exits 1 with a message on stderr when the file does not parse or holds no game.
'use strict'

const fs = require('fs')
const sgf = require('@sabaki/sgf')

function main(argv) {
  if (argv.length !== 1) {
    throw new Error('usage: node check.js FILE.sgf')
  }
  const text = fs.readFileSync(argv[0], 'utf8')
  const games = sgf.parse(text)
  if (games.length === 0) {
    throw new Error(`${argv[0]}: no game tree`)
  }
  const nodes = []
  for (let node = games[0]; node != null; node = node.children[0]) {
    nodes.push(node.data)
  }
  process.stdout.write(JSON.stringify({games: games.length, nodes}) + '\n')
}

try {
  main(process.argv.slice(2))
} catch (err) {
  process.stderr.write(`sabaki-check: ${err.message}\n`)
  process.exit(1)
}
