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
dnl Configure checks for the dumper with options, which writes
dnl compressed savefiles (sf-compress-write.c and the codecs' files).
dnl All of them are here, out of configure.ac, so that the hook there
dnl stays two lines.  Included with m4_include from configure.ac, after
dnl the pthreads check.  A dumper writes what the reader reads: the
dnl reader's checks (sf-compress-read.m4) come first, and a codec
dnl library is used for writing where it was found for reading.
dnl
m4_include([sf-compress-read.m4])

dnl AC_LBL_SF_COMPRESS: the reader's checks (each codec's file, built
dnl where its library is found, reads and writes its container), the
dnl __atomic builtins and pthreads.  Whatever is missing, every function
dnl pcap.h declares is built: without fopencookie() or the builtins
dnl sf-compress-write.c has stubs.
AC_DEFUN([AC_LBL_SF_COMPRESS],
[
	AC_LBL_SF_COMPRESS_READ
	#
	# Dumpers share counters and flags between threads through the
	# GCC/Clang __atomic builtins.  A compiler without them (MSVC)
	# gets the stubs, and plain savefiles work.
	#
	AC_CACHE_CHECK([for the __atomic builtins],
	    [ac_cv_lbl_sfc_atomics],
	    [AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <stdint.h>]],
		[[uint64_t v = 0; int i = 0, z = 0;
		__atomic_store_n(&v, __atomic_load_n(&v, __ATOMIC_ACQUIRE) + 1,
		    __ATOMIC_RELEASE);
		(void)__atomic_compare_exchange_n(&i, &z, 1, 0,
		    __ATOMIC_RELEASE, __ATOMIC_RELAXED);
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
		return (int)v;]])],
		[ac_cv_lbl_sfc_atomics=yes], [ac_cv_lbl_sfc_atomics=no])])
	sf_compress_dumper=$sf_compress_cookie
	if test "x$ac_cv_lbl_sfc_atomics" = xno; then
		sf_compress_dumper=no
	else
		AC_DEFINE(SFC_HAVE_ATOMICS, 1,
		    [define if the compiler has the __atomic builtins])
	fi
	sf_compress_pthreads=no
	if test "x$ac_lbl_have_pthreads" = xfound &&
	    test "x$ac_cv_lbl_sfc_atomics" = xyes; then
		sf_compress_pthreads=yes
		AC_DEFINE(HAVE_PTHREADS, 1,
		    [define if pthreads are available])
		ADDITIONAL_LIBS="$ADDITIONAL_LIBS $PTHREAD_LIBS"
		ADDITIONAL_LIBS_STATIC="$ADDITIONAL_LIBS_STATIC $PTHREAD_LIBS"
		LIBS_PRIVATE="$LIBS_PRIVATE $PTHREAD_LIBS"
	fi
	MODULE_C_SRC="$MODULE_C_SRC sf-compress-write.c"
	MODULE_C_SRC="$MODULE_C_SRC sf-compress-adapt.c"
	#
	# The writer thread (sf-writer.c; its glue, compression helpers
	# and closing thread are in sf-compress-write.c) needs pthreads
	# and a dumper; without them, sf-compress-write.c has a
	# pcap_dump_close_async() that closes at once, and without
	# pthreads the writer thread's options are refused with a
	# message.
	#
	if test "x$sf_compress_pthreads" = xyes; then
		#
		# Where the thread runs, and the options' checks of it
		# (sf-writer.c, whose other parts need a dumper too).
		# Pinning the writer thread to a CPU needs
		# pthread_attr_setaffinity_np(); without it a request to
		# pin fails rather than being ignored.  The writer and
		# compression threads name themselves, for top -H, with
		# pthread_setname_np() where there is one.
		#
		MODULE_C_SRC="$MODULE_C_SRC sf-writer.c"
		save_LIBS="$LIBS"
		LIBS="$LIBS $PTHREAD_LIBS"
		AC_CHECK_FUNCS(pthread_attr_setaffinity_np pthread_setname_np)
		LIBS="$save_LIBS"
	fi
	if test "x$sf_compress_pthreads" = xyes &&
	    test "x$sf_compress_dumper" = xyes; then
		#
		# The writer's timed waits use CLOCK_MONOTONIC where a
		# condition variable can be given a clock.
		#
		save_LIBS="$LIBS"
		LIBS="$LIBS $PTHREAD_LIBS"
		AC_CHECK_FUNCS(pthread_condattr_setclock)
		LIBS="$save_LIBS"
	fi
])
