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
dnl Configure checks for reading compressed savefiles: a savefile that
dnl gzip, lz4 or zstd compressed, or that a program compressed block by
dnl block, is read through a decompressing stream (sf-compress-read.c,
dnl and one file per codec library).  They are here, out of
dnl configure.ac, so that the hook there stays two lines.
dnl Included with m4_include from configure.ac.
dnl
dnl AC_LBL_SF_COMPRESS_CODEC(name, VAR, pkg-config module, header,
dnl     function, -l library, DEFINE, source file)
dnl
dnl --with-NAME=yes|no|if_available (default if_available): look the
dnl library up with pkg-config, as the libnl check does, falling back to
dnl the plain header and library; a codec that was asked for and is
dnl missing is an error.  sf_compress_found_NAME says whether it was
dnl found, for a writer's checks to build on.
AC_DEFUN([AC_LBL_SF_COMPRESS_CODEC],
[
	AC_ARG_WITH([$1],
	    AS_HELP_STRING([--with-$1],
		[compressed savefiles with $1 @<:@default=yes, if present@:>@]),
	    [with_$1=$withval], [with_$1=if_available])
	sf_compress_found_$1=no
	if test "x$with_$1" != xno && test "x$sf_compress_cookie" = xyes; then
		PKG_CHECK_MODULE([$2], [$3],
		    [
			sf_compress_found_$1=yes
			V_INCLS="$V_INCLS $$2_CFLAGS"
			ADDITIONAL_LIBS="$ADDITIONAL_LIBS $$2_LIBS"
			ADDITIONAL_LIBS_STATIC="$ADDITIONAL_LIBS_STATIC $$2_LIBS_STATIC"
			REQUIRES_PRIVATE="$REQUIRES_PRIVATE $3"
		    ],
		    [
			AC_CHECK_HEADER([$4],
			    [AC_CHECK_LIB([$6], [$5],
				[
				    sf_compress_found_$1=yes
				    ADDITIONAL_LIBS="$ADDITIONAL_LIBS -l$6"
				    ADDITIONAL_LIBS_STATIC="$ADDITIONAL_LIBS_STATIC -l$6"
				    LIBS_PRIVATE="$LIBS_PRIVATE -l$6"
				])])
		    ])
		if test "x$sf_compress_found_$1" = xyes; then
			AC_DEFINE([$7], 1,
			    [define if compressed savefiles can use $1])
			MODULE_C_SRC="$MODULE_C_SRC $8"
		elif test "x$with_$1" = xyes; then
			AC_MSG_ERROR([--with-$1 was given, but $1 was not found])
		fi
	elif test "x$with_$1" = xyes; then
		AC_MSG_ERROR([--with-$1 was given, but compressed savefiles need fopencookie() or funopen()])
	fi
])

dnl AC_LBL_SF_COMPRESS_READ: fopencookie() or funopen(), and the
dnl BSD-licensed codecs: zlib (gzip), liblz4, libzstd.
dnl sf-compress-read.c is always built: without either function
dnl (SFC_COOKIE_OFF_T undefined) it still recognises compressed files,
dnl and refuses them by name.
AC_DEFUN([AC_LBL_SF_COMPRESS_READ],
[
	MODULE_C_SRC="$MODULE_C_SRC sf-compress-read.c"
	AC_CHECK_FUNCS(fopencookie,
	    [sf_compress_cookie=yes], [sf_compress_cookie=no])
	if test "x$sf_compress_cookie" = xyes; then
		#
		# The seek function takes an off64_t * in glibc and an
		# off_t * in musl, whose off_t is 64 bits wide and which
		# declares off64_t only for _LARGEFILE64_SOURCE, if at all.
		# A function of the other type is a hard error here, as a
		# redeclaration, where an initializer would only warn.
		#
		AC_CACHE_CHECK([for the offset type of fopencookie()'s seek function],
		    [ac_cv_lbl_sfc_cookie_off_t],
		    [ac_cv_lbl_sfc_cookie_off_t=no
		    for sfc_t in off64_t off_t; do
			AC_COMPILE_IFELSE([AC_LANG_PROGRAM([[
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdio.h>
cookie_seek_function_t sfc_seek;
int sfc_seek(void *c, $sfc_t *o, int w) { return c != o ? w : 0; }
]], [[]])],
			    [ac_cv_lbl_sfc_cookie_off_t=$sfc_t; break])
		    done])
		if test "x$ac_cv_lbl_sfc_cookie_off_t" = xno; then
			sf_compress_cookie=no
		else
			AC_DEFINE_UNQUOTED(SFC_COOKIE_OFF_T,
			    $ac_cv_lbl_sfc_cookie_off_t,
			    [the offset type of the stream's seek function])
		fi
	else
		#
		# macOS and the other BSDs have funopen() instead, whose
		# seek function takes and returns an fpos_t, which is an
		# off_t there (libbsd's takes an off_t).
		#
		AC_CHECK_FUNCS(funopen, [
			sf_compress_cookie=yes
			AC_DEFINE(SFC_COOKIE_OFF_T, off_t,
			    [the offset type of the stream's seek function])
		])
	fi
	AC_LBL_SF_COMPRESS_CODEC(zlib, ZLIB, zlib, zlib.h, inflateReset, z,
	    HAVE_ZLIB, sf-compress-zlib.c)
	AC_LBL_SF_COMPRESS_CODEC(lz4, LIBLZ4, liblz4, lz4frame.h,
	    LZ4F_decompress, lz4, HAVE_LIBLZ4, sf-compress-lz4.c)
	AC_LBL_SF_COMPRESS_CODEC(zstd, LIBZSTD, libzstd, zstd.h,
	    ZSTD_decompressStream, zstd, HAVE_LIBZSTD, sf-compress-zstd.c)
])
