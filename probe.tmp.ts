import { Workbook } from './emulator/gas/spreadsheet';
import { findHeaderRow } from './src/sheet/header';
(async () => {
  const wb = await Workbook.fromXlsx('/work/wt/header/samples/supplier-price-list.xlsx');
  const v = wb.values('Price List');
  console.log(v.length, JSON.stringify(v.slice(0,3)));
  for (const r of [142, 221, 133, 144, 210, 199]) console.log(r, JSON.stringify(v[r-1]));
  for (const [a,b] of [[10,20],[25,40],[40,50],[60,80],[100,120],[150,170],[200,210],[250,280]]) {
    const top = v.slice(a-1, b);
    const inside = findHeaderRow(top);
    const first = Math.max(1, a-30);
    const above = findHeaderRow(v.slice(first-1, a-1), 30);
    console.log(a,b,'inside', inside>=0? a+inside: -1, 'above', above>=0? first+above : -1);
  }
})();
