module github.com/wayfinder-agent/wayfinder

go 1.26.8

tool golang.org/x/mobile/cmd/gobind

require (
	github.com/coder/websocket v1.8.15
	github.com/mattn/go-sqlite3 v1.14.52
	github.com/sashabaranov/go-openai v1.43.0
)

require (
	golang.org/x/mobile v0.0.0-20260908204917-8b95e45f8d3e // indirect
	golang.org/x/mod v0.41.0 // indirect
	golang.org/x/sync v0.23.0 // indirect
	golang.org/x/text v0.31.0 // indirect
	golang.org/x/tools v0.50.0 // indirect
)
