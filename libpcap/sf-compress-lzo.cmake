# Copyright (c) 2026 The sluice developers.  All rights reserved.
#
# Redistribution and use in source and binary forms, with or without
# modification, are permitted provided that the following conditions
# are met:
#
#   1. Redistributions of source code must retain the above copyright
#      notice, this list of conditions and the following disclaimer.
#   2. Redistributions in binary form must reproduce the above copyright
#      notice, this list of conditions and the following disclaimer in the
#      documentation and/or other materials provided with the distribution.
#   3. Neither the name of the copyright holders nor the names of its
#      contributors may be used to endorse or promote products derived
#      from this software without specific prior written permission.
#
# THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS AND CONTRIBUTORS
# ``AS IS'' AND ANY EXPRESS OR IMPLIED WARRANTIES, INCLUDING, BUT NOT
# LIMITED TO, THE IMPLIED WARRANTIES OF MERCHANTABILITY AND FITNESS FOR
# A PARTICULAR PURPOSE ARE DISCLAIMED. IN NO EVENT SHALL THE COPYRIGHT
# OWNER OR CONTRIBUTORS BE LIABLE FOR ANY DIRECT, INDIRECT, INCIDENTAL,
# SPECIAL, EXEMPLARY, OR CONSEQUENTIAL DAMAGES (INCLUDING, BUT NOT
# LIMITED TO, PROCUREMENT OF SUBSTITUTE GOODS OR SERVICES; LOSS OF USE,
# DATA, OR PROFITS; OR BUSINESS INTERRUPTION) HOWEVER CAUSED AND ON ANY
# THEORY OF LIABILITY, WHETHER IN CONTRACT, STRICT LIABILITY, OR TORT
# (INCLUDING NEGLIGENCE OR OTHERWISE) ARISING IN ANY WAY OUT OF THE USE
# OF THIS SOFTWARE, EVEN IF ADVISED OF THE POSSIBILITY OF SUCH DAMAGE.
#
# CMake checks for lzop savefiles, an option of the compressed savefiles
# of sf-compress.cmake: included by CMakeLists.txt after it.
#

#
# sf_compress_lzo(): liblzo2 for the lzop container.  liblzo2 is
# GPL-2.0-or-later, so a libpcap built with it is distributed under the
# GPL; off unless WITH_LZO is set.  Without it, lzop files are still
# known by their magic number and refused by name, and --compress=lzo
# is refused as not built (SFC_LZOP_CONTAINER).
#
macro(sf_compress_lzo)
  set(SFC_LZOP_CONTAINER 1)
  option(WITH_LZO "compressed savefiles with LZO (lzop); liblzo2 is GPL, so the resulting libpcap is too" OFF)
  if(WITH_LZO)
    if(NOT SF_COMPRESS_COOKIE)
      message(FATAL_ERROR "WITH_LZO was given, but compressed savefiles need fopencookie() or funopen()")
    endif()
    sf_compress_codec(lzo LIBLZO2 lzo2 lzo/lzo1x.h lzo1x_1_compress lzo2
        HAVE_LIBLZO2 sf-compress-lzo.c)
    if(NOT HAVE_LIBLZO2)
      message(FATAL_ERROR "WITH_LZO was given, but liblzo2 was not found")
    endif()
  endif()
endmacro()
