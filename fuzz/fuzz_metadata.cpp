// SPDX-License-Identifier: MIT
// libFuzzer target: parseDatasetMetadata, a write/read round trip, then applied to the fixture and to a small
// CSV (fuzz_checks.h).
#include "fuzz/fuzz_checks.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    return pbx::fuzz::run(pbx::fuzz::checkMetadata, data, size);
}
