// SPDX-License-Identifier: MIT
// libFuzzer target: parseLedgerJson, then evaluateLedger (basic, advanced, zCDP, RDP, PLD at interval 1e-2)
// on ledgers of at most 8 events (fuzz_checks.h).
#include "fuzz/fuzz_checks.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    return pbx::fuzz::run(pbx::fuzz::checkLedger, data, size);
}
