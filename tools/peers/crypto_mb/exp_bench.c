/* crypto_mb's modular exponentiation of eight numbers (mbx_exp_mb8) against redc's lane
 * form (`ifma::pow_lanes`): `exp_bench BITS [ROUNDS]` times one call with eight random odd
 * BITS-bit moduli and full-length exponents and prints the fastest microseconds per call of
 * ROUNDS timings of ten calls (see README.md here). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <crypto_mb/exp.h>
static double now(){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
static unsigned long long s=7; static unsigned long long lcg(){ s=s*6364136223846793005ULL+1442695040888963407ULL; return s^(s>>29);}
int main(int argc,char**argv){
  int bits=atoi(argv[1]); int rounds=argc>2?atoi(argv[2]):10; int L=bits/64;
  static int64u M[8][64],B[8][64],E[8][64],O[8][64]; int64u *mp[8],*bp[8],*ep[8],*op[8];
  for(int i=0;i<8;i++){ for(int j=0;j<L;j++){M[i][j]=lcg();B[i][j]=lcg();E[i][j]=lcg();} M[i][L-1]|=1ULL<<63; M[i][0]|=1; B[i][L-1]>>=1;
    mp[i]=M[i];bp[i]=B[i];ep[i]=E[i];op[i]=O[i];}
  int bl=mbx_exp_BufferSize(bits); int8u* buf=aligned_alloc(64,(bl+63)/64*64);
  double best=1e99;
  for(int r=0;r<rounds;r++){ double t0=now(); for(int k=0;k<10;k++){ mbx_status st=mbx_exp_mb8(op,(const int64u* const*)bp,(const int64u* const*)ep,bits,(const int64u* const*)mp,bits,buf,bl); if(st){printf("err %d\n",(int)st);return 1;} } double t=(now()-t0)/10*1e6; if(t<best)best=t;}
  printf("%.1f\n",best);
}
