module github.com/wayfinder-agent/wayfinder

go 1.26.8

tool golang.org/x/mobile/cmd/gobind

require (
	github.com/coder/websocket v1.8.15
	github.com/invopop/jsonschema v0.14.0
	github.com/kljensen/snowball v0.10.0
	github.com/mattn/go-sqlite3 v1.14.52
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3
	github.com/sashabaranov/go-openai v1.43.0
	golang.org/x/text v0.31.0
)

require (
	github.com/bahlo/generic-list-go v0.2.0 // indirect
	github.com/buger/jsonparser v1.1.2 // indirect
	github.com/pb33f/ordered-map/v2 v2.3.1 // indirect
	go.yaml.in/yaml/v4 v4.0.0-rc.2 // indirect
	golang.org/x/mobile v0.0.0-20260908204917-8b95e45f8d3e // indirect
	golang.org/x/mod v0.41.0 // indirect
	golang.org/x/sync v0.23.0 // indirect
	golang.org/x/tools v0.50.0 // indirect
)

replace golang.org/x/exp/shiny => golang.org/x/exp/shiny v0.0.0-20260908205506-85c1c2202aba
