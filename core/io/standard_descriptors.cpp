// SPDX-License-Identifier: MIT
#include "core/io/standard_descriptors.h"

#include <cerrno>

#include <fcntl.h>
#include <unistd.h>

namespace pbx::io {

bool ensureStandardDescriptorsOpen()
{
    for (int fd = 0; fd <= 2; ++fd) {
        if (::fcntl(fd, F_GETFD) != -1 || errno != EBADF)
            continue;
        // open() returns the lowest free descriptor: this one.
        const int opened = ::open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
        if (opened != fd) {
            if (opened >= 0)
                ::close(opened);
            return false;
        }
    }
    return true;
}

} // namespace pbx::io
