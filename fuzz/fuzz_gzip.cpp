// SPDX-License-Identifier: MIT
// libFuzzer target: gunzip with the default and with a 1000-byte output limit (fuzz_checks.h).
#include "fuzz/fuzz_checks.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    return pbx::fuzz::run(pbx::fuzz::checkGzip, data, size);
}
