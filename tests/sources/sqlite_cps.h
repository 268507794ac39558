// SPDX-License-Identifier: MIT
// CPS1988 written into an SQLite file with SQLite's own API on a read-write connection (the source
// under test never opens one): shared by the SQLite source and session tests.
#pragma once

#include "core/data/table.h"
#include "tests/sources/source_fixtures.h"
#include "tests/test_rows.h"

#include <sqlite3.h>

#include <string>

namespace pbx::test {

// Writes statements with SQLite's own API on a read-write connection (the source under test never
// opens one).
class Writer
{
public:
    explicit Writer(const std::string &path) { sqlite3_open(path.c_str(), &m_db); }
    ~Writer() { sqlite3_close(m_db); }
    bool exec(const std::string &sql)
    {
        return sqlite3_exec(m_db, sql.c_str(), nullptr, nullptr, nullptr) == SQLITE_OK;
    }
    std::string error() const { return sqlite3_errmsg(m_db); }
    sqlite3 *db() const { return m_db; }

private:
    sqlite3 *m_db = nullptr;
};

// CPS1988 as table `cps`: wage REAL, education and experience INTEGER, the categories TEXT.
inline bool writeCps(const std::string &path, const data::Table &table)
{
    Writer writer(path);
    if (!writer.exec("CREATE TABLE cps (wage REAL, education INTEGER, experience INTEGER, ethnicity TEXT, "
                     "smsa TEXT, region TEXT, parttime TEXT); BEGIN"))
        return false;
    sqlite3_stmt *insert = nullptr;
    sqlite3_prepare_v2(writer.db(), "INSERT INTO cps VALUES (?, ?, ?, ?, ?, ?, ?)", -1, &insert, nullptr);
    const test::PublicRows rows(table);
    for (std::size_t r = 0; r < rows->rowCount(); ++r) {
        for (int c = 0; c < 7; ++c) {
            if (c < 3) {
                const double x = rows->numeric(std::size_t(c))[r];
                if (c == 0)
                    sqlite3_bind_double(insert, c + 1, x);
                else
                    sqlite3_bind_int64(insert, c + 1, static_cast<sqlite3_int64>(x));
            } else {
                const std::string label = test::cellText(rows, std::size_t(c), r);
                sqlite3_bind_text(insert, c + 1, label.c_str(), -1, SQLITE_TRANSIENT);
            }
        }
        if (sqlite3_step(insert) != SQLITE_DONE)
            return false;
        sqlite3_reset(insert);
    }
    sqlite3_finalize(insert);
    return writer.exec("COMMIT");
}

} // namespace pbx::test
