# Wayfinder — `make` lists the targets. Toolchain versions are pinned here.
SHELL := /bin/bash
GO ?= go
XMOBILE_VERSION := v0.0.0-20260908204917-8b95e45f8d3e
KOTLIN_VERSION := 2.4.20
ANDROID_PLATFORM := android-35
ANDROID_BUILD_TOOLS := 35.0.0
ANDROID_NDK := 27.2.12479018
SHARED ?= ../shared
DATA ?= $(SHARED)/droidtask
OUT ?= out
# guard of the drift subset: the least share of tasks a drifted copy must
# replay without help (measured 2026-11: see README)
DRIFT_MIN_REPLAY ?= 0.85
export WAYFINDER_CACHE ?= $(HOME)/.cache/wayfinder
# guarded success rate of the graph planner with the on-device model (make test-eval; measured 103/127 = 0.811, stop 35)
GRAPH_MIN_SUCCESS ?= 0.76
# ... planning from the frozen test set's value-free rewordings instead of the recorded
# instructions (first and second rewording of each task; measured 36/44 = 0.818 and 35/44 = 0.795, stop 35)
GRAPH_REWORD_MIN ?= 0.70
# ... on an updated copy of the apps with every kind of drift but bounds at once (relabelled, ids renamed,
# reordered, wrapped, a setting moved deeper, a dialog nobody asked for; wayfinder drift, moderate), seed 2:
# a copy no rule was tuned on (stops 46-47 tuned on seeds 1 and 3); measured 97/127 = 0.764, stop 47
GRAPH_DRIFT_MIN ?= 0.70
GRAPH_DRIFT_KINDS := text,rename-id,shuffle,wrap,deeper,interstitial

# guarded figures of the development commands without a model (make test-eval; measured 62 correct, 1 wrong flow, stop 38:
# a route check without a model once replayed "the last video" for "the last photo")
DEV_MIN_CORRECT ?= 62
DEV_MAX_WRONG ?= 1
# guarded figures of the frozen test set with the on-device model (make test-eval; measured 255 correct, 13 wrong flows or values, int8 weights, stop 38)
FROZEN_MIN_CORRECT ?= 250
FROZEN_MAX_WRONG ?= 16
# ... with a simulated owner answering "did you mean", giving the values it means and naming the rows (measured 322 correct, 13 wrong flows or values, stop 38)
FROZEN_OWNER_MIN_CORRECT ?= 313
FROZEN_OWNER_MAX_WRONG ?= 16

.DEFAULT_GOAL := help

.PHONY: help
help: ## list the targets
	@grep -hE '^[a-zA-Z0-9_./-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-16s %s\n", $$1, $$2}'

.PHONY: setup
setup: ## install what a fresh machine lacks (apt, npm, Maven Central, Go modules)
	bash scripts/setup.sh

.PHONY: demo
demo: ## run the main job on the built-in demo phone (no ../shared, no key), then again offline
	$(GO) mod download
	$(GO) run ./cmd/wayfinder demo

.PHONY: test
test: setup ## everything CI runs: installs what is missing, then every suite
	$(MAKE) --no-print-directory test-go test-eval test-android test-jni test-apk test-e2e arm64
	@echo "all test suites passed"

.PHONY: test-go
test-go: ## go vet and all Go tests (race detector on the engine and store)
	$(GO) vet ./...
	$(GO) test -count=1 ./...
	$(GO) test -race -count=1 ./daemon/ ./daemon/api/ ./daemon/event/ ./daemon/semantic/ ./daemon/inspect/ ./bridge/ ./knowledge/

.PHONY: test-eval
test-eval: ## eval on the recorded apps: oracle (all tasks) and graph planner
	mkdir -p $(OUT)
	$(GO) run ./cmd/wayfinder eval --data $(DATA) --planner oracle --commands testdata/commands.jsonl --report $(OUT)/eval-oracle.json --min-correct $(DEV_MIN_CORRECT) --max-wrong $(DEV_MAX_WRONG)
	@# the frozen test set (issue 11) with the on-device embedding model (fetched by setup): its figure is guarded
	set -o pipefail; $(GO) run ./cmd/wayfinder eval --data $(DATA) --planner oracle --commands testdata/frozen/test.jsonl --embed-model local --report $(OUT)/eval-frozen-local.json -q --min-correct $(FROZEN_MIN_CORRECT) --max-wrong $(FROZEN_MAX_WRONG) | grep '^commands:'
	set -o pipefail; $(GO) run ./cmd/wayfinder eval --data $(DATA) --planner oracle --commands testdata/frozen/test.jsonl --embed-model local --owner --report $(OUT)/eval-frozen-owner.json -q --min-correct $(FROZEN_OWNER_MIN_CORRECT) --max-wrong $(FROZEN_OWNER_MAX_WRONG) | grep '^commands:' | sed 's/^/with the owner: /'
	@# the graph planner's failed tasks are measurements, not test failures:
	@# keep its "N passed, M failed" line out of the test log (it is in the report)
	@# ... with the on-device embedding model (fetched by setup) in its command↔element scoring (issue 11)
	$(GO) run ./cmd/wayfinder eval --data $(DATA) --planner graph --commands testdata/commands.jsonl --embed-model local --report $(OUT)/eval-graph.json -q --min-success $(GRAPH_MIN_SUCCESS) > $(OUT)/eval-graph.txt; status=$$?; grep -v ' passed, [0-9]* failed$$' $(OUT)/eval-graph.txt; exit $$status
	@# ... and from the frozen test set's rewordings: words the planner was not developed on
	@for k in 0 1; do $(GO) run ./cmd/wayfinder eval --data $(DATA) --planner graph --instructions testdata/frozen/test.jsonl --instructions-pick $$k --embed-model local --report $(OUT)/eval-graph-reworded-$$k.json -q --min-success $(GRAPH_REWORD_MIN) > $(OUT)/eval-graph-reworded-$$k.txt; status=$$?; grep '^total' $(OUT)/eval-graph-reworded-$$k.txt | sed "s/^/rewording $$k: /"; [ $$status -eq 0 ] || exit $$status; done
	@# ... and on an updated copy of the apps (every kind of drift at once, the held-out seed): screens it was not developed on
	rm -rf $(OUT)/graph-drift-ci && $(GO) run ./cmd/wayfinder drift --data $(DATA) --out $(OUT)/graph-drift-ci --kinds $(GRAPH_DRIFT_KINDS) --strength moderate --seed 2 > /dev/null
	$(GO) run ./cmd/wayfinder eval --data $(OUT)/graph-drift-ci --planner graph --embed-model local --report $(OUT)/eval-graph-drift.json -q --min-success $(GRAPH_DRIFT_MIN) > $(OUT)/eval-graph-drift.txt; status=$$?; grep '^total' $(OUT)/eval-graph-drift.txt | sed 's/^/updated apps (held-out seed): /'; exit $$status
	$(MAKE) --no-print-directory test-eval-drift

.PHONY: test-eval-drift
test-eval-drift: ## drift benchmark subset with a guard: every kind at moderate strength, first 4 apps
	scripts/drift-bench.sh --data $(DATA) --out $(OUT)/drift-ci --strengths moderate --app-count 4 --min-replay $(DRIFT_MIN_REPLAY)

.PHONY: drift-bench
drift-bench: ## the full UI-drift benchmark: every kind x low/moderate/high on all recorded apps (table in $(OUT)/drift/table.md)
	mkdir -p $(OUT)/drift
	scripts/drift-bench.sh --data $(DATA) --out $(OUT)/drift | tee $(OUT)/drift/table.md
	scripts/drift-bench.sh --data $(DATA) --out $(OUT)/drift --kinds deeper --explore | tail -n +3 | tee -a $(OUT)/drift/table.md

.PHONY: test-android
test-android: ## compile every Kotlin source against android-all and run the JVM unit tests
	bash scripts/android-check.sh

.PHONY: test-jni
test-jni: ## gobind + host JNI library + Kotlin round trip through the binding
	bash scripts/jni-roundtrip.sh

.PHONY: test-e2e
test-e2e: ## the inspector page in headless Chromium: scripted demo, then the real engine (wayfinder serve)
	bash scripts/e2e-inspector.sh

.PHONY: test-arm64
test-arm64: ## knowledge and daemon tests for linux/arm64 under qemu
	bash scripts/arm64-test.sh ./knowledge/ ./daemon/

.PHONY: arm64
arm64: ## static linux/arm64 wayfinder CLI, then its knowledge and daemon tests under qemu
	bash scripts/arm64-build.sh $(OUT)/wayfinder-linux-arm64
	bash scripts/arm64-test.sh ./knowledge/ ./daemon/

.PHONY: bench
bench: ## benchmarks: go test -bench and the wayfinder bench table
	$(GO) test -run='^$$' -bench=. -benchmem ./daemon/... ./knowledge/
	$(GO) run ./cmd/wayfinder bench --data $(DATA)

.PHONY: eval-frozen
eval-frozen: ## the frozen test and tuning sets (issue 11) with the on-device model: replay alone, then with a simulated owner answering "did you mean"
	mkdir -p $(OUT)
	@for set in test tune tune2 tune3 tune4 tune5 tune6 tune7 tune8 tune9 tune10 tune11 tune12; do for owner in "" --owner; do \
		echo "== $$set $$owner"; \
		$(GO) run ./cmd/wayfinder eval --data $(DATA) --planner oracle --commands testdata/frozen/$$set.jsonl --embed-model local $$owner --report $(OUT)/eval-frozen-$$set$$owner.json -q | grep -E '^commands|^did you mean' || exit 1; \
	done; done

.PHONY: eval-graph-rewordings
eval-graph-rewordings: ## the graph planner planning from the frozen sets' value-free rewordings (first and second of each task) instead of the recorded instructions
	mkdir -p $(OUT)
	@for set in test tune tune2 tune3; do for k in 0 1; do \
		$(GO) run ./cmd/wayfinder eval --data $(DATA) --planner graph --instructions testdata/frozen/$$set.jsonl --instructions-pick $$k --embed-model local --report $(OUT)/eval-graph-reworded-$$set-$$k.json -q 2>&1 | grep -E '^total|no task' | sed "s/^/$$set rewording $$k: /"; \
	done; done

.PHONY: eval-graph-drift
eval-graph-drift: ## the graph planner on updated copies of the apps (wayfinder drift: each kind but bounds, then all at once on seeds 1-3; moderate and high), a stand-in for apps never seen
	mkdir -p $(OUT)/graph-drift
	@for k in text rename-id shuffle deeper wrap interstitial; do for s in moderate high; do \
		rm -rf $(OUT)/graph-drift/$$k-$$s && $(GO) run ./cmd/wayfinder drift --data $(DATA) --out $(OUT)/graph-drift/$$k-$$s --kinds $$k --strength $$s --seed 1 > /dev/null && \
		$(GO) run ./cmd/wayfinder eval --data $(OUT)/graph-drift/$$k-$$s --planner graph --embed-model local --report $(OUT)/graph-drift/$$k-$$s.json -q 2>&1 | grep -E '^total' | sed "s/^/$$k $$s: /"; \
	done; done
	@# every kind at once: seeds 1 and 3 were read while tuning (stops 46, 47), seed 2 only as a total
	@for seed in 1 2 3; do for s in moderate high; do \
		rm -rf $(OUT)/graph-drift/all-$$seed-$$s && $(GO) run ./cmd/wayfinder drift --data $(DATA) --out $(OUT)/graph-drift/all-$$seed-$$s --kinds $(GRAPH_DRIFT_KINDS) --strength $$s --seed $$seed > /dev/null && \
		$(GO) run ./cmd/wayfinder eval --data $(OUT)/graph-drift/all-$$seed-$$s --planner graph --embed-model local --report $(OUT)/graph-drift/all-$$seed-$$s.json -q 2>&1 | grep -E '^total' | sed "s/^/all kinds, seed $$seed, $$s: /"; \
	done; done

.PHONY: eval-full
eval-full: ## the full graph-planner eval on every recorded app
	mkdir -p $(OUT)
	$(GO) run ./cmd/wayfinder eval --data $(DATA) --planner graph --commands testdata/commands.jsonl --report $(OUT)/eval-graph-full.json

.PHONY: eval-llm-local
eval-llm-local: ## llm and auto planners against SmolLM2-135M served by llama-cpp-python on 127.0.0.1 (built once into WAYFINDER_CACHE, ~20 min; slow, not in CI)
	DATA=$(DATA) OUT=$(OUT) bash scripts/eval-llm-local.sh

.PHONY: fuzz
fuzz: ## run every fuzz target for 30 s each
	bash scripts/fuzz.sh 30s

$(OUT)/wayfinder: $(shell find . -name '*.go' -not -path './_hostjni/*') go.mod
	$(GO) build -o $@ ./cmd/wayfinder

.PHONY: build
build: $(OUT)/wayfinder ## build the wayfinder CLI

android-app/app/libs/wayfinder.aar: $(shell find bridge daemon knowledge -name '*.go' -o -name '*.html' -o -name '*.tmpl' -o -name '*.sql') go.mod
	ANDROID_PLATFORM=$(ANDROID_PLATFORM) ANDROID_NDK=$(ANDROID_NDK) XMOBILE_VERSION=$(XMOBILE_VERSION) bash scripts/android-build.sh aar

.PHONY: aar
aar: android-app/app/libs/wayfinder.aar ## the gomobile AAR: Android SDK + NDK 27.2.12479018 if ANDROID_HOME is set, else the stand-in toolchain (../shared/android-sysroot)

.PHONY: apk
apk: aar ## signed debug APK -> out/android/wayfinder-debug.apk (Gradle with the SDK, else the stand-in toolchain)
	ANDROID_PLATFORM=$(ANDROID_PLATFORM) ANDROID_BUILD_TOOLS=$(ANDROID_BUILD_TOOLS) ANDROID_NDK=$(ANDROID_NDK) XMOBILE_VERSION=$(XMOBILE_VERSION) bash scripts/android-build.sh apk

.PHONY: apk-release
apk-release: ## release APK without the inspector (-tags wayfinder_release), signed with WAYFINDER_KEYSTORE/_KEY_ALIAS/_KEYSTORE_PASS[/_KEY_PASS]
	ANDROID_PLATFORM=$(ANDROID_PLATFORM) ANDROID_BUILD_TOOLS=$(ANDROID_BUILD_TOOLS) ANDROID_NDK=$(ANDROID_NDK) XMOBILE_VERSION=$(XMOBILE_VERSION) bash scripts/android-build.sh apk-release

.PHONY: test-apk
test-apk: ## build the AAR, the debug APK and a release APK (throwaway key), then static checks on them
	XMOBILE_VERSION=$(XMOBILE_VERSION) bash scripts/apk-check.sh --build

.PHONY: clean
clean: ## remove build output
	rm -rf $(OUT) _hostjni
