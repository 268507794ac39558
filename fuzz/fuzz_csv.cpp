// SPDX-License-Identifier: MIT
// libFuzzer target: readCsv on the bytes, plain and with declared metadata for columns a and b
// (fuzz_checks.h).
#include "fuzz/fuzz_checks.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    return pbx::fuzz::run(pbx::fuzz::checkCsv, data, size);
}
