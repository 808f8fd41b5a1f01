// Package tuned embeds batchlas's routing tables, one file per
// (op, dtype, device): <op>.<dtype>.<device>.txt. Package internal/route
// reads and checks them; README.md says how they are made and reviewed.
package tuned

import "embed"

// FS holds the tables and index.txt, which lists them.
//
//go:embed *.txt
var FS embed.FS
