// SPDX-License-Identifier: MIT
#include "app/cli/odp_cli_support.h"

#include "core/io/text_file.h"

#include <cmath>
#include <sstream>

namespace pbx::cli::odpcli {

Options parseOrExit(const std::vector<std::string> &args, std::set<std::string> valued,
                    std::set<std::string> flags)
{
    valued.insert({"--out", "--format"});
    flags.insert("--help");
    auto o = Options::parse(args, valued, flags);
    if (!o)
        throw Exit{2, o.error().message};
    if (auto f = o->value("--format"); f && *f != "json" && *f != "csv")
        throw Exit{2, "--format: expected json or csv"};
    return *o;
}

double number(const Options &o, const std::string &name, double fallback)
{
    auto v = o.number(name);
    if (!v)
        throw Exit{1, v.error().message};
    return v->value_or(fallback);
}

double requiredNumber(const Options &o, const std::string &name)
{
    if (!o.has(name))
        throw Exit{2, name + " is required (see --help)"};
    return number(o, name, 0.0);
}

std::int64_t integer(const Options &o, const std::string &name, std::int64_t fallback)
{
    if (!o.has(name))
        return fallback;
    const std::string text = *o.value(name);
    try {
        std::size_t used = 0;
        const long long v = std::stoll(text, &used);
        if (used != text.size())
            throw Exit{1, name + ": '" + text + "' is not an integer"};
        return v;
    } catch (const std::logic_error &) {
        throw Exit{1, name + ": '" + text + "' is not an integer"};
    }
}

std::vector<double> numberList(const Options &o, const std::string &name, std::vector<double> fallback)
{
    if (!o.has(name))
        return fallback;
    std::vector<double> out;
    std::stringstream in(*o.value(name));
    std::string item;
    while (std::getline(in, item, ',')) {
        try {
            std::size_t used = 0;
            const double v = std::stod(item, &used);
            if (used != item.size() || !std::isfinite(v))
                throw Exit{1, name + ": '" + item + "' is not a number"};
            out.push_back(v);
        } catch (const std::logic_error &) {
            throw Exit{1, name + ": '" + item + "' is not a number"};
        }
    }
    if (out.empty())
        throw Exit{1, name + ": an empty list"};
    return out;
}

std::string choice(const Options &o, const std::string &name, const std::string &fallback,
                   const std::vector<std::string> &choices)
{
    const std::string v = o.value(name).value_or(fallback);
    for (const auto &c : choices)
        if (c == v)
            return v;
    std::string list;
    for (const auto &c : choices)
        list += (list.empty() ? "" : "|") + c;
    throw Exit{2, name + ": expected " + list + ", not '" + v + "'"};
}

std::unique_ptr<mechanisms::RandomBits> randomSource(const Options &o)
{
    if (o.has("--seed")) {
        auto seed = o.unsignedInteger("--seed");
        if (!seed)
            throw Exit{1, seed.error().message};
        return std::make_unique<mechanisms::SeededRandomBits>(seed->value_or(1), 0);
    }
    auto os = mechanisms::OsRandomBits::open();
    if (!os)
        throw Exit{1, os.error().message};
    return std::make_unique<mechanisms::OsRandomBits>(std::move(*os));
}

bool printHelp(const Options &o, std::ostream &out, const char *usage)
{
    if (o.has("--help"))
        out << usage;
    return o.has("--help");
}

std::string csvNumber(double x)
{
    std::ostringstream s;
    s.precision(10);
    s << x;
    return s.str();
}

void emit(const Options &o, const io::json::Json &doc, const std::string &csv, std::ostream &out)
{
    const bool asCsv = o.value("--format").value_or("json") == "csv";
    if (asCsv && csv.empty())
        throw Exit{2, "--format csv: this subcommand writes JSON only"};
    const std::string text = asCsv ? csv : doc.dump(2) + "\n";
    if (auto path = o.value("--out")) {
        if (auto written = io::writeTextFileAtomically(*path, text); !written)
            throw Exit{1, written.error().message};
        return;
    }
    out << text;
}

} // namespace pbx::cli::odpcli
