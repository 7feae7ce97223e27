dnl Copyright (c) 2026 The sluice developers.  All rights reserved.
dnl
dnl Redistribution and use in source and binary forms, with or without
dnl modification, are permitted provided that the following conditions
dnl are met:
dnl
dnl   1. Redistributions of source code must retain the above copyright
dnl      notice, this list of conditions and the following disclaimer.
dnl   2. Redistributions in binary form must reproduce the above copyright
dnl      notice, this list of conditions and the following disclaimer in the
dnl      documentation and/or other materials provided with the distribution.
dnl   3. Neither the name of the copyright holders nor the names of its
dnl      contributors may be used to endorse or promote products derived
dnl      from this software without specific prior written permission.
dnl
dnl THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS AND CONTRIBUTORS
dnl ``AS IS'' AND ANY EXPRESS OR IMPLIED WARRANTIES, INCLUDING, BUT NOT
dnl LIMITED TO, THE IMPLIED WARRANTIES OF MERCHANTABILITY AND FITNESS FOR
dnl A PARTICULAR PURPOSE ARE DISCLAIMED. IN NO EVENT SHALL THE COPYRIGHT
dnl OWNER OR CONTRIBUTORS BE LIABLE FOR ANY DIRECT, INDIRECT, INCIDENTAL,
dnl SPECIAL, EXEMPLARY, OR CONSEQUENTIAL DAMAGES (INCLUDING, BUT NOT
dnl LIMITED TO, PROCUREMENT OF SUBSTITUTE GOODS OR SERVICES; LOSS OF USE,
dnl DATA, OR PROFITS; OR BUSINESS INTERRUPTION) HOWEVER CAUSED AND ON ANY
dnl THEORY OF LIABILITY, WHETHER IN CONTRACT, STRICT LIABILITY, OR TORT
dnl (INCLUDING NEGLIGENCE OR OTHERWISE) ARISING IN ANY WAY OUT OF THE USE
dnl OF THIS SOFTWARE, EVEN IF ADVISED OF THE POSSIBILITY OF SUCH DAMAGE.
dnl
dnl Configure checks for lzop savefiles, an option of the compressed
dnl savefiles of sf-compress.m4: included with m4_include from
dnl configure.ac after it.
dnl
dnl AC_LBL_SF_COMPRESS_LZO: liblzo2 for the lzop container.  liblzo2 is
dnl GPL-2.0-or-later, so a libpcap built with it is distributed under
dnl the GPL; off unless --with-lzo is given.  Without it, lzop files are
dnl still known by their magic number and refused by name, and
dnl --compress=lzo is refused as not built (SFC_LZOP_CONTAINER).
AC_DEFUN([AC_LBL_SF_COMPRESS_LZO],
[
	AC_DEFINE(SFC_LZOP_CONTAINER, 1,
	    [define to know the lzop container, read and written with LZO])
	AC_ARG_WITH([lzo],
	    AS_HELP_STRING([--with-lzo],
		[compressed savefiles with LZO (lzop); liblzo2 is GPL, so the resulting libpcap is too @<:@default=no@:>@]),
	    [with_lzo=$withval], [with_lzo=no])
	if test "x$with_lzo" != xno; then
		if test "x$sf_compress_cookie" != xyes; then
			AC_MSG_ERROR([--with-lzo was given, but compressed savefiles need fopencookie() or funopen()])
		fi
		PKG_CHECK_MODULE(LIBLZO2, lzo2,
		    [
			V_INCLS="$V_INCLS $LIBLZO2_CFLAGS"
			ADDITIONAL_LIBS="$ADDITIONAL_LIBS $LIBLZO2_LIBS"
			ADDITIONAL_LIBS_STATIC="$ADDITIONAL_LIBS_STATIC $LIBLZO2_LIBS_STATIC"
			REQUIRES_PRIVATE="$REQUIRES_PRIVATE lzo2"
		    ],
		    [
			AC_CHECK_HEADER(lzo/lzo1x.h,
			    [AC_CHECK_LIB(lzo2, lzo1x_1_compress,
				[
				    ADDITIONAL_LIBS="$ADDITIONAL_LIBS -llzo2"
				    ADDITIONAL_LIBS_STATIC="$ADDITIONAL_LIBS_STATIC -llzo2"
				    LIBS_PRIVATE="$LIBS_PRIVATE -llzo2"
				],
				[AC_MSG_ERROR([--with-lzo was given, but liblzo2 was not found])])],
			    [AC_MSG_ERROR([--with-lzo was given, but lzo/lzo1x.h was not found])])
		    ])
		AC_DEFINE(HAVE_LIBLZO2, 1,
		    [define if compressed savefiles can use LZO])
		MODULE_C_SRC="$MODULE_C_SRC sf-compress-lzo.c"
	fi
])
