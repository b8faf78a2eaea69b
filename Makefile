# The two commands of the README, plus a few conveniences.  All real work is in CMake
# (CMakePresets.json) and scripts/.
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
WAREHOUSE ?= warehouse

.PHONY: all deps build release test demo bench fuzz format check-format clean compare-doubles \
        tsan tsan-subset

all: build

deps:
	@./scripts/install-deps.sh

build: deps
	cmake --preset debug
	cmake --build --preset debug -j $(JOBS)

release: deps
	cmake --preset release
	cmake --build --preset release -j $(JOBS)

# Every test, with the debug preset's sanitizers; then the threaded subset under
# ThreadSanitizer (tests/threads/CMakeLists.txt lists it; `make tsan` runs everything).
test: build
	ctest --preset debug
	$(MAKE) tsan-subset

# ThreadSanitizer: the tsan preset (build/tsan) builds only what its `tsan` label runs.
TSAN_TARGETS = paimon_cli unit_util_test_pool unit_data_test_parallel_source unit_data_test_readahead \
               unit_table_test_compact_faults unit_table_test_write_faults unit_api_test_writer \
               unit_table_test_async_compact unit_table_test_write_memory \
               unit_format_test_parquet_rw unit_format_test_orc_format
tsan-subset: deps
	cmake --preset tsan
	cmake --build --preset tsan -j $(JOBS) --target $(TSAN_TARGETS)
	ctest --preset tsan -L tsan

# Every test under ThreadSanitizer (long: the whole suite, built once more).
tsan: deps
	cmake --preset tsan
	cmake --build --preset tsan -j $(JOBS)
	ctest --preset tsan -LE "tsan|threads"

# Builds the optimized tool and runs the demo on a local warehouse.
demo: release
	./build/release/paimon demo $(WAREHOUSE)

bench: release
	./scripts/bench.sh

# The long equivalence run of the DOUBLE/FLOAT printer (100 M patterns of each width against
# the formatter it replaced; minutes, so not part of make test).  N=... to change the count.
N ?= 100000000
compare-doubles: release
	./build/release/tests/tools/double_compare $(N)

fuzz: deps
	cmake --preset fuzz
	cmake --build --preset fuzz -j $(JOBS)

format:
	./scripts/format.sh

check-format:
	./scripts/format.sh --check

clean:
	rm -rf build
