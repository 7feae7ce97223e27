set terminal pngcairo size 1280,840 font ',9'
set output '/tmp/wt-bench/bench/published/2026-11-28-hot-ring/report/cpu.png'
set datafile separator ','
set multiplot layout 2,2 title 'CPU per packet captured, per thread (median of runs; capture process on one CPU)'
set style data histograms; set style histogram rowstacked; set style fill solid 0.8 border -1; set boxwidth 0.7
set ylabel 'us per packet'; set yrange [0:*]; set key top left font ',8'; set xtics rotate by -35 font ',8'; set grid ytics
set title 'fixed64, 1-s capture at 200000 frames/s'
plot '/tmp/wt-bench/bench/published/2026-11-28-hot-ring/report/.cpu-fixed64-1.dat' using 2:xtic(1) title 'capture thread (stock: the process)', '' using 3 title 'pcap-writer', '' using 4 title 'other threads'
set title 'fixed64, 25-s capture at 200000 frames/s'
plot '/tmp/wt-bench/bench/published/2026-11-28-hot-ring/report/.cpu-fixed64-25.dat' using 2:xtic(1) title 'capture thread (stock: the process)', '' using 3 title 'pcap-writer', '' using 4 title 'other threads'
set title 'http, 1-s capture at 200000 frames/s'
plot '/tmp/wt-bench/bench/published/2026-11-28-hot-ring/report/.cpu-http-1.dat' using 2:xtic(1) title 'capture thread (stock: the process)', '' using 3 title 'pcap-writer', '' using 4 title 'other threads'
set title 'http, 25-s capture at 200000 frames/s'
plot '/tmp/wt-bench/bench/published/2026-11-28-hot-ring/report/.cpu-http-25.dat' using 2:xtic(1) title 'capture thread (stock: the process)', '' using 3 title 'pcap-writer', '' using 4 title 'other threads'
unset multiplot
