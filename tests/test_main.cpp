// SPDX-License-Identifier: MIT
// The main of a test bundle (qtest_bundle.h): `BUNDLE TestClassName [QTest arguments]` runs one
// registered test class; `BUNDLE` alone lists them. Exit status: the class's (QTest's failure
// count), or 2 for an unknown or missing class name.
#include "qtest_bundle.h"

#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace {

struct Registry
{
    std::map<std::string, pbx::testing::TestMain> mains;
    std::vector<std::string> duplicates;
};

Registry &registry()
{
    static Registry instance;
    return instance;
}

} // namespace

bool pbx::testing::registerTest(const char *className, TestMain main)
{
    auto &r = registry();
    if (!r.mains.emplace(className, main).second)
        r.duplicates.emplace_back(className);
    return true;
}

int main(int argc, char *argv[])
{
    const auto &r = registry();
    for (const auto &name : r.duplicates)
        std::fprintf(stderr, "%s: two test classes are named %s in this bundle\n", argv[0], name.c_str());
    if (!r.duplicates.empty())
        return 2;
    const auto found = argc >= 2 ? r.mains.find(argv[1]) : r.mains.end();
    if (found == r.mains.end()) {
        std::fprintf(stderr, "%s: %s; the test classes here are:\n", argv[0],
                     argc >= 2 ? "no test class of that name" : "name the test class to run");
        for (const auto &entry : r.mains)
            std::fprintf(stderr, "  %s\n", entry.first.c_str());
        return 2;
    }
    std::vector<char *> args{argv[0]};
    args.insert(args.end(), argv + 2, argv + argc);
    args.push_back(nullptr);
    return found->second(static_cast<int>(args.size()) - 1, args.data());
}
